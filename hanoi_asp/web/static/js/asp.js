/*
 * ASP text as the page needs to read it, without a solver: a tokenizer that knows
 * comments and strings, the statements with their lines, and what the page asks of an
 * encoding before it runs one: the directives it refuses (#script and #include, as
 * the command line does), whether it is incremental (#program step(t).), whether it
 * derives move/3 (a whole encoding) or reads edge/2, its rules section by section
 * (as `explain` shows them), its integrity constraints relaxed (to ask which rule
 * rejects a plan), and an exercise's spoiler.
 */

const PUNCTUATION = [":-", ":~", "..", "!=", "<=", ">=", "**", "(", ")", "{", "}", "[", "]",
  ",", ";", ".", ":", "=", "<", ">", "+", "-", "*", "/", "\\", "|", "@", "&", "?", "^", "~"];

/*
 * The tokens of `text`: {type, value, line, start, end} with type "ident" (a
 * lower-case name), "var", "number", "string", "directive" (#word), "punct" or "other";
 * comments are skipped.  `problem` is {line, message} for an unterminated string or
 * block comment.
 */
export function tokenize(text) {
  const tokens = [];
  let i = 0, line = 1, problem = null;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "\n") { line++; i++; continue; }
    if (c === " " || c === "\t" || c === "\r") { i++; continue; }
    if (c === "%") {
      if (text[i + 1] === "*") {  // %* block comment *%
        const close = text.indexOf("*%", i + 2);
        const stop = close < 0 ? n : close + 2;
        if (close < 0) problem = problem || {line, message: "a block comment %* is never closed"};
        for (let k = i; k < stop; k++) if (text[k] === "\n") line++;
        i = stop;
      } else {
        while (i < n && text[i] !== "\n") i++;
      }
      continue;
    }
    const start = i;
    if (c === '"') {
      i++;
      while (i < n && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      if (text[i] !== '"') {
        problem = problem || {line, message: "a string is not closed on its line"};
      } else {
        i++;
      }
      tokens.push({type: "string", value: text.slice(start, i), line, start, end: i});
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9]/.test(text[i])) i++;
      tokens.push({type: "number", value: text.slice(start, i), line, start, end: i});
      continue;
    }
    if (/[A-Za-z_']/.test(c)) {
      while (i < n && /[A-Za-z0-9_']/.test(text[i])) i++;
      const word = text.slice(start, i);
      const type = /^_*[a-z]/.test(word) ? "ident" : "var";
      tokens.push({type, value: word, line, start, end: i});
      continue;
    }
    if (c === "#") {
      i++;
      while (i < n && /[A-Za-z_]/.test(text[i])) i++;
      tokens.push({type: "directive", value: text.slice(start, i), line, start, end: i});
      continue;
    }
    const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
    if (punct) {
      i += punct.length;
      tokens.push({type: "punct", value: punct, line, start, end: i});
      continue;
    }
    i++;
    tokens.push({type: "other", value: c, line, start, end: i});
  }
  return {tokens, problem};
}

/* The statements: {tokens, line, endLine, text} split at the periods outside brackets;
   text is the statement as written, comments cut, on one line. */
export function statements(text) {
  const {tokens} = tokenize(text);
  const out = [];
  let current = [], depth = 0;
  for (const token of tokens) {
    current.push(token);
    if (token.type === "punct") {
      if ("({[".includes(token.value)) depth++;
      else if (")}]".includes(token.value)) depth = Math.max(0, depth - 1);
      else if (token.value === "." && depth === 0) {
        out.push(statement(text, current));
        current = [];
      }
    }
  }
  if (current.length) out.push(statement(text, current));
  return out;
}

function statement(text, tokens) {
  const first = tokens[0], last = tokens[tokens.length - 1];
  const written = text.slice(first.start, last.end).split("\n")
    .map((part) => stripComment(part).trim()).filter(Boolean).join(" ");
  return {tokens, line: first.line, endLine: last.line, text: written};
}

/* A line without its trailing % comment (outside strings). */
function stripComment(line) {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"' && line[i - 1] !== "\\") quoted = !quoted;
    else if (line[i] === "%" && !quoted) return line.slice(0, i);
  }
  return line;
}

/* The first #script, #include or #end of an encoding, as the command line refuses it
   (hanoi_asp.inputs.asp_text.check_encoding, REFUSED_DIRECTIVES): {line, message} or null. */
export function refusedDirective(text) {
  const found = tokenize(text).tokens.find((t) =>
    t.type === "directive" && ["#script", "#include", "#end"].includes(t.value));
  if (!found) return null;
  return {line: found.line, message: found.value + " is not allowed in an encoding: " +
    "hanoi-asp never runs embedded scripts or reads other files (grading may run " +
    "encodings nobody checked)"};
}

/* Does the encoding use the multi-shot `#program step(t).` layout? */
export function isIncremental(text) {
  return statements(text).some((s) => s.tokens[0].value === "#program" &&
    s.tokens[1] && s.tokens[1].value === "step");
}

/* The number of arguments of the call whose "(" is tokens[open]; -1 if none. */
function arity(tokens, open) {
  if (!tokens[open] || tokens[open].value !== "(") return 0;
  let depth = 0, count = 1, empty = true;
  for (let k = open; k < tokens.length; k++) {
    const v = tokens[k].type === "punct" ? tokens[k].value : null;
    if (v === "(" || v === "{" || v === "[") depth++;
    else if (v === ")" || v === "}" || v === "]") {
      depth--;
      if (depth === 0) return empty ? 0 : count;
    } else if (depth === 1 && v === ",") count++;
    else if (depth === 1 && v === ";") return count;  // a pool: its first tuple
    if (k > open) empty = false;
  }
  return count;
}

function mentions(tokens, name, args) {
  return tokens.some((t, k) => t.type === "ident" && t.value === name &&
    arity(tokens, k + 1) === args);
}

/* The tokens of a rule's head (before :-), or null for a directive. */
function headOf(stmt) {
  if (stmt.tokens[0].type === "directive") return null;
  const neck = stmt.tokens.findIndex((t) => t.value === ":-" || t.value === ":~");
  return neck < 0 ? stmt.tokens : stmt.tokens.slice(0, neck);
}

/* Does some rule have move/3 in its head (a choice included)?  Then it is a whole
   encoding (hanoi_asp.teaching.grade.check_whole). */
export function derivesMove(text) {
  return statements(text).some((s) => {
    const head = headOf(s);
    return head !== null && mentions(head, "move", 3);
  });
}

/* Does the encoding read edge/2 (a move graph)?  Comments do not count. */
export function mentionsEdges(text) {
  return mentions(tokenize(text).tokens, "edge", 2);
}

/* -- explain's view of an encoding ----------------------------------------------------- */

const SECTION_NAMES = ["Generate", "Define", "Test", "Display", "Heuristic"];

/* The encoding split at its `% Generate` / `% Define` / `% Test` / `% Display` lines, each
   rule with the comment lines just above it (hanoi_asp.teaching.explain.encoding_sections). */
export function sections(text) {
  const out = [];
  let comment = [], statement = [], start = 0, program = "base";
  text.split("\n").forEach((raw, index) => {
    const number = index + 1, line = raw.trim();
    if (!statement.length && line.startsWith("%")) {
      const words = line.replace(/^%+/, "").trim();
      if (SECTION_NAMES.includes(words)) {
        out.push({name: words, intro: "", rules: []});
        comment = [];
      } else {
        comment.push(words);
      }
      return;
    }
    if (!line) {
      if (!statement.length) {
        const last = out[out.length - 1];
        if (comment.length && last && !last.rules.length && !last.intro) last.intro = comment.join(" ");
        comment = [];
      }
      return;
    }
    const code = stripComment(line).trimEnd();
    if (!statement.length) start = number;
    statement.push(code);
    if (code.endsWith(".")) {
      const rule = statement.join(" ");
      statement = [];
      if (rule.startsWith("#program")) {
        program = rule.slice("#program".length).trim().replace(/\.$/, "").trim();
        comment = [];
        return;
      }
      if (!out.length) out.push({name: "Preamble", intro: "", rules: []});
      out[out.length - 1].rules.push({text: rule, comment: comment.join(" "), line: start, program});
      comment = [];
    }
  });
  return out;
}

/* -- which rule rejects a plan --------------------------------------------------------- */

export const BROKEN = "__why_broken";

/*
 * A one-shot encoding with every integrity constraint relaxed, as
 * hanoi_asp.teaching.why_rejected does with clingo's AST: `:- body.` becomes
 * `__why_broken(i,(X,Y)) :- body.` over the body's global variables (those of its
 * plain literals and comparisons, and of aggregate guards; not those local to an
 * aggregate or a condition).  Returns {text, constraints: [{line, text, variables}],
 * moveRules: [{line, text}]}; the text keeps every line where it was.
 */
export function relaxConstraints(text) {
  const constraints = [], moveRules = [], edits = [];
  for (const stmt of statements(text)) {
    const first = stmt.tokens[0];
    if (first.value === ":-" && first.type === "punct") {
      const variables = globalVariables(stmt.tokens.slice(1, -1));
      const tuple = variables.length === 1 ? "(" + variables[0] + ",)" : "(" + variables.join(",") + ")";
      edits.push({start: first.start, end: first.start, insert: BROKEN + "(" + constraints.length + "," + tuple + ") "});
      constraints.push({line: stmt.line, text: stmt.text, variables});
    } else {
      const head = headOf(stmt);
      if (head !== null && mentions(head, "move", 3)) moveRules.push({line: stmt.line, text: stmt.text});
    }
  }
  let out = text;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.insert + out.slice(edit.end);
  return {text: out, constraints, moveRules};
}

/* The body's elements split at top-level commas and semicolons. */
function bodyElements(tokens) {
  const out = [];
  let current = [], depth = 0;
  for (const token of tokens) {
    const v = token.type === "punct" ? token.value : null;
    if (v === "(" || v === "{" || v === "[") depth++;
    if (v === ")" || v === "}" || v === "]") depth--;
    if (depth === 0 && (v === "," || v === ";")) { out.push(current); current = []; continue; }
    current.push(token);
  }
  if (current.length) out.push(current);
  return out;
}

function globalVariables(body) {
  const names = [];
  const add = (token) => {
    if (token.type === "var" && token.value !== "_" && !names.includes(token.value)) names.push(token.value);
  };
  for (const element of bodyElements(body)) {
    let depth = 0;
    const conditional = element.some((t) => {  // `p(X) : q(X)`: its variables are local
      if (t.value === "(" || t.value === "{") depth++;
      if (t.value === ")" || t.value === "}") depth--;
      return depth === 0 && t.type === "punct" && t.value === ":";
    });
    if (conditional) continue;
    depth = 0;
    for (const token of element) {
      if (token.value === "{") { depth++; continue; }
      if (token.value === "}") { depth--; continue; }
      if (depth === 0) add(token);  // outside an aggregate's braces: its guards
    }
  }
  return names;
}

/* -- exercises ------------------------------------------------------------------------- */

const BUG = /^%\s*The bug\b/;
export const SPOILER_LINE = "% The bug: hidden until you ask (\"show the bug\" above the editor).";

/* An exercise split at its spoiler: the paragraph from its "The bug" line through its
   "Expect:" line.  {text: the encoding with that paragraph replaced by one line,
   spoiler: the paragraph, or null when it has none}. */
export function splitSpoiler(text) {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => BUG.test(line));
  if (first < 0) return {text, spoiler: null};
  let last = first;
  while (last + 1 < lines.length && /^%\s{2,}\S/.test(lines[last + 1])) last++;
  if (last + 1 < lines.length && /^%\s*Expect:/.test(lines[last + 1])) last++;
  const spoiler = lines.slice(first, last + 1).join("\n");
  return {text: [...lines.slice(0, first), SPOILER_LINE, ...lines.slice(last + 1)].join("\n"), spoiler};
}
