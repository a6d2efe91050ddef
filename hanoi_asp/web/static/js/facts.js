/*
 * An .lp instance read in the page, as hanoi_asp/inputs/read_facts.py reads it: only
 * ground facts of peg/1, disk/1, init_on/2, goal_on/2, moves/1 and edge/2 (pools,
 * intervals and integer arithmetic expanded as clingo would), every problem reported
 * with its line and the command line's words.  Nothing in the text is run.  As there,
 * the text is looked at in clingo's order: a directive anywhere first, then what clingo
 * would misread (a NUL byte, a number past its integers), a character outside ASCII,
 * the syntax of the whole text, and only then what the facts mean, statement by
 * statement.  (The corpus in tests/corpus holds the cases both readers must meet.)
 *
 *   readInstance(text) -> the puzzle ({pegs, disks, start, goal, graph, max_moves}),
 *                         or throws a FactError {message, line}
 */

import {tokenize, statements} from "./asp.js";
import {pythonRepr} from "./domain.js";

export const MAX_FACTS = 20000;
export const MAX_DISKS = 64, MAX_PEGS = 32;
const PREDICATES = {peg: 1, disk: 1, init_on: 2, goal_on: 2, moves: 1, edge: 2};
const MAX_INTEGER = 2147483647;
const PAST = "past clingo's integers (-2147483648..2147483647): it would be read as another number";
const NOT_AN_INTEGER = "expected an integer (only +, - and * are evaluated)";
const TOO_MANY = "the instance expands to more than " + MAX_FACTS + " facts";
const STAND_IN = {type: "num", value: 0};

export class FactError extends Error {
  constructor(message, line) {
    super(message);
    this.line = line === undefined ? null : line;
  }
}

/* -- terms ----------------------------------------------------------------------------- */

/*
 * A parser over one statement's tokens; every term is a list of the symbols it stands
 * for (a pool or an interval stands for several).  A syntax error is thrown at once, at
 * its token's line; an error of meaning (a variable, @f, arithmetic clingo would not
 * evaluate, too many facts) is kept in `deferred` or `tooMany` and the parse goes on,
 * so that a syntax error later in the text is reported first, as clingo parses the
 * whole text before anything is read.  `negatives`: read `-c` as the negated constant
 * clingo prints in a model (in an instance, read_facts takes it for arithmetic).
 */
class Terms {
  constructor(tokens, line, {negatives = false} = {}) {
    this.tokens = tokens;
    this.at = 0;
    this.line = line;
    this.negatives = negatives;
    this.deferred = null;
    this.tooMany = false;
  }

  peek() { return this.tokens[this.at]; }
  next(value) { return this.peek() !== undefined && this.peek().value === value; }

  fail(message, token = this.peek()) {
    const last = this.tokens[this.tokens.length - 1];
    throw new FactError(message, token ? token.line : last ? last.line : this.line);
  }

  unexpected(expecting = "") {
    const token = this.peek();
    this.fail("syntax error, unexpected " + (token ? token.value : "end of statement") +
      (expecting === "." ? " (is a period missing?)" : expecting ? ", expecting " + expecting : ""));
  }

  defer(message) {
    if (!this.deferred) this.deferred = new FactError(message, this.line);
    return [STAND_IN];
  }

  expect(value) {
    if (!this.next(value)) this.unexpected(value);
    this.at++;
  }

  /* `a;b` alternatives of `x,y` tuples: a list of argument lists (clingo reads an empty
     alternative, `f(a;)`, as no arguments), with `trailing` set for a comma before `)`. */
  tuples() {
    const out = [];
    let trailing = false;
    for (;;) {
      let alternatives = [[]];
      while (!this.next(";") && !this.next(")")) {
        const values = this.term();
        if (alternatives.length * values.length > MAX_FACTS || this.tooMany) {
          this.tooMany = true;
          alternatives = [alternatives[0].concat([STAND_IN])];
        } else {
          const grown = [];
          for (const args of alternatives) for (const v of values) grown.push([...args, v]);
          alternatives = grown;
        }
        if (!this.next(",")) break;
        this.at++;
        if (this.next(")")) { trailing = true; break; }
      }
      out.push(...alternatives);
      if (out.length > MAX_FACTS) { this.tooMany = true; out.length = 1; }
      if (!this.next(";")) { out.trailing = trailing; return out; }
      this.at++;
    }
  }

  /* A term where it stands for a value (an argument, a bound, a statement): its
     arithmetic settled, as read_facts evaluates a whole expression at once. */
  term() {
    const low = this.bitwise();
    if (!this.next("..")) return low.map((v) => this.settle(v));
    this.at++;
    const high = this.bitwise();
    const a = this.integer(low), b = this.integer(high);
    if (a === null || b === null) return this.defer(NOT_AN_INTEGER);
    if (b - a + 1 > MAX_FACTS) { this.tooMany = true; return [STAND_IN]; }
    const out = [];
    for (let v = a; v <= b; v++) out.push({type: "num", value: v});
    return out;
  }

  settle(value) {
    if (value.big === undefined) return value;
    if (value.big > BigInt(MAX_INTEGER) || value.big < -BigInt(MAX_INTEGER) - 1n) {
      this.defer("the arithmetic gives " + value.big + ", " + PAST);
      return STAND_IN;
    }
    return {type: "num", value: Number(value.big)};
  }

  /* The integer a bound stands for, or null (then the error is deferred). */
  integer(values) {
    if (values.length !== 1 || values[0].type !== "num") return null;
    const settled = this.settle(values[0]);
    return settled === STAND_IN && values[0].big !== undefined ? null : settled.value;
  }

  /* clingo's binary operators, loosest first; read_facts evaluates + - * only. */
  bitwise() { return this.binary(["&", "?", "^"], () => this.sum()); }
  sum() { return this.binary(["+", "-"], () => this.product()); }
  product() { return this.binary(["*", "/", "\\"], () => this.power()); }

  power() {
    const left = this.unary();
    if (!this.next("**")) return left;
    this.at++;
    this.power();
    return this.defer(NOT_AN_INTEGER);
  }

  binary(operators, operand) {
    let left = operand();
    while (this.peek() && this.peek().type === "punct" && operators.includes(this.peek().value)) {
      const op = this.tokens[this.at++].value, right = operand();
      left = this.arithmetic(op, left, right);
    }
    return left;
  }

  arithmetic(op, left, right) {
    const a = this.big(left), b = this.big(right);
    if (a === null || b === null || !"+-*".includes(op)) return this.defer(NOT_AN_INTEGER);
    const big = op === "+" ? a + b : op === "-" ? a - b : a * b;
    return [{type: "num", value: 0, big}];
  }

  big(values) {
    if (values.length !== 1 || values[0].type !== "num") return null;
    return values[0].big !== undefined ? values[0].big : BigInt(values[0].value);
  }

  unary() {
    if (this.next("-")) {
      this.at++;
      const operand = this.unary();
      if (this.negatives && operand.length === 1 && operand[0].type === "fun" && operand[0].name) {
        return [{...operand[0], negative: !operand[0].negative}];
      }
      const value = this.big(operand);
      return value === null ? this.defer(NOT_AN_INTEGER) : [{type: "num", value: 0, big: -value}];
    }
    if (this.next("~")) {
      this.at++;
      this.unary();
      return this.defer(NOT_AN_INTEGER);
    }
    return this.primary();
  }

  primary() {
    const token = this.peek();
    if (!token) this.unexpected();
    if (token.type === "number") { this.at++; return [{type: "num", value: Number(token.value)}]; }
    if (token.type === "string") { this.at++; return [{type: "str", value: unquote(token.value)}]; }
    if (token.type === "var") {
      this.at++;
      return this.defer("variable " + token.value + " in a fact: instance files hold only ground facts");
    }
    if (token.type === "ident" && token.value !== "not") {
      this.at++;
      if (!this.next("(")) return [{type: "fun", name: token.value, args: []}];
      this.at++;
      const args = this.tuples();
      if (args.trailing) this.unexpected();
      this.expect(")");
      return args.map((a) => ({type: "fun", name: token.value, args: a}));
    }
    if (token.value === "(") {
      this.at++;
      const inner = this.tuples();
      const tuple = inner.trailing || inner.some((args) => args.length !== 1);
      this.expect(")");
      if (!tuple) return inner.map((args) => args[0]);  // a bracketed term
      return inner.map((args) => ({type: "fun", name: "", args}));
    }
    if (token.value === "|") {  // |X|, clingo's absolute value
      this.at++;
      this.bitwise();
      this.expect("|");
      return this.defer(NOT_AN_INTEGER);
    }
    if (token.value === "@") {
      this.at++;
      this.primary();
      return this.defer("external functions (@f) are not allowed");
    }
    return this.unexpected();
  }
}

function unquote(token) {
  return token.slice(1, -1).replace(/\\(["\\n])/g, (_, c) => (c === "n" ? "\n" : c));
}

function show(symbol) {
  if (symbol.type === "num") return String(symbol.value);
  if (symbol.type === "str") return JSON.stringify(symbol.value);
  const sign = symbol.negative ? "-" : "";
  if (!symbol.name) return "(" + symbol.args.map(show).join(",") + (symbol.args.length === 1 ? ",)" : ")");
  return sign + (symbol.args.length ? symbol.name + "(" + symbol.args.map(show).join(",") + ")" : symbol.name);
}

/* The peg name a symbol stands for (hanoi_asp.inputs.facts.peg_name), or null. */
function pegName(symbol) {
  if (symbol.type === "num") return String(symbol.value);
  if (symbol.type === "str") return symbol.value;
  return symbol.args.length || !symbol.name || symbol.negative ? null : symbol.name;
}

/* -- facts ----------------------------------------------------------------------------- */

/* What read_facts refuses before clingo's parser sees the text (asp_text.scan and
   safe_parse): a directive anywhere, then a NUL byte or a number past clingo's
   integers, then a character outside ASCII (outside strings and comments). */
function scan(text, scanned) {
  const directive = scanned.tokens.find((t) => t.type === "directive");
  if (directive) {
    throw new FactError(directive.value + " is not allowed in an instance file (instance " +
      "files hold only facts)", directive.line);
  }
  for (const token of scanned.tokens) {
    if (token.value === "\0") throw new FactError("a NUL byte: clingo would ignore the text after it", token.line);
    if (token.type === "number" && Number(token.value) > MAX_INTEGER) {
      throw new FactError("the number " + token.value + " is " + PAST, token.line);
    }
  }
  const foreign = scanned.tokens.find((t) => t.type === "other" && t.value.charCodeAt(0) > 127);
  if (foreign) {
    const char = String.fromCodePoint(text.codePointAt(foreign.start));
    throw new FactError("unexpected character " + pythonRepr(char) + ": only ASCII outside " +
      "strings and comments", foreign.line);
  }
  if (scanned.problem) throw new FactError("lexer error, " + scanned.problem.message, scanned.problem.line);
}

const PLAIN = "only plain facts are allowed (no choices or aggregates)";
const POSITIVE = "only positive facts are allowed";

/* One statement: its symbols, or the error of meaning it is refused with (thrown only
   once the whole text has parsed); a syntax error is thrown at once. */
function parseStatement(stmt) {
  let tokens = stmt.tokens;
  const line = stmt.line, first = tokens[0];
  const refused = (message) => ({line, error: new FactError(message, line)});
  if (first.value === ":~") return refused("only facts are allowed, found a Minimize statement");
  const neck = tokens.findIndex((t) => t.value === ":-");
  if (neck >= 0) {
    if (neck !== tokens.length - 2 || tokens[neck + 1].value !== ".") {
      return refused("only facts are allowed, found a rule with a body");
    }
    tokens = tokens.slice(0, neck).concat(tokens.slice(neck + 1));  // `a :- .`: a fact
  }
  if (tokens.some((t) => t.value === "{") || first.value === "&") return refused(PLAIN);
  if (first.type === "ident" && first.value === "not") return refused(POSITIVE);
  if (first.value === "-" && tokens[1] && tokens[1].type === "ident") return refused(POSITIVE);
  const terms = new Terms(tokens, line);
  if (first.type !== "ident") terms.unexpected();  // a head is an atom: `1.` and `(a,b).` are not
  const symbols = terms.term();
  if (terms.peek() && ["|", ";", ",", ":"].includes(terms.peek().value)) return refused(PLAIN);
  terms.expect(".");
  if (terms.tooMany) return refused(TOO_MANY);
  if (terms.deferred) return {line, error: terms.deferred};
  return {line, symbols};
}

function facts(text) {
  const scanned = tokenize(text);
  scan(text, scanned);
  const parsed = [];
  let weak = false;
  for (const stmt of statements(text)) {
    if (weak && stmt.tokens[0].value === "[") { weak = false; continue; }  // `:~ a. [1]`: one statement
    weak = stmt.tokens[0].value === ":~";
    parsed.push(parseStatement(stmt));
  }
  const found = [];
  for (const {line, symbols, error} of parsed) {
    if (error) throw error;
    if (found.length + symbols.length > MAX_FACTS) throw new FactError(TOO_MANY, line);
    for (const symbol of symbols) {
      if (symbol.type !== "fun" || !symbol.name || PREDICATES[symbol.name] !== symbol.args.length) {
        const name = symbol.type === "fun" && symbol.name ? symbol.name : show(symbol);
        const arity = symbol.type === "fun" && symbol.name ? symbol.args.length : 0;
        throw new FactError("unknown predicate " + name + "/" + arity + " (expected one of " +
          Object.entries(PREDICATES).map(([p, a]) => p + "/" + a).join(", ") + ")", line);
      }
      found.push({symbol, line});
    }
  }
  return found;
}

function diskNumber(symbol, fact) {
  const arg = symbol.args[0];
  if (arg.type !== "num" || arg.value < 1) {
    throw new FactError("a disk is a positive integer (1 is the largest): " + show(symbol), fact.line);
  }
  return arg.value;
}

/* The puzzle an .lp instance describes (see the top of this file). */
export function readInstance(text) {
  const all = facts(text);
  const pegs = [], diskLines = new Map(), placed = {init_on: new Map(), goal_on: new Map()};
  let moves = null;
  for (const fact of all) {
    const {symbol, line} = fact, name = symbol.name;
    if (name === "peg") {
      const peg = pegName(symbol.args[0]);
      if (peg === null) throw new FactError("peg name must be a constant, integer or string: " + show(symbol), line);
      if (peg === "") throw new FactError("a peg name cannot be empty: " + show(symbol), line);
      if (!pegs.includes(peg)) pegs.push(peg);
    } else if (name === "disk") {
      const disk = diskNumber(symbol, fact);
      if (!diskLines.has(disk)) diskLines.set(disk, line);
    } else if (name === "moves") {
      const arg = symbol.args[0];
      if (arg.type !== "num" || arg.value < 0) throw new FactError("moves/1 needs a non-negative integer: " + show(symbol), line);
      if (moves !== null && moves.value !== arg.value) {
        throw new FactError("moves/1 given twice (" + moves.value + " at line " + moves.line + ")", line);
      }
      moves = {value: arg.value, line};
    }
  }
  if (!pegs.length) throw new FactError("no peg/1 facts: an instance needs at least one peg", null);
  if (!diskLines.size) throw new FactError("no disk/1 facts: an instance needs at least one disk", null);
  const count = diskLines.size;
  for (const disk of [...diskLines.keys()].sort((a, b) => a - b)) {
    if (disk > count) {
      let missing = 1;
      while (diskLines.has(missing)) missing++;
      throw new FactError("disks must be numbered 1..n with 1 the largest; disk " + disk +
        " is given but not disk " + missing, diskLines.get(disk));
    }
  }
  for (const fact of all) {
    const {symbol, line} = fact, name = symbol.name;
    if (!placed[name]) continue;
    const part = name === "init_on" ? "init" : "goal";
    const disk = diskNumber(symbol, fact), peg = pegName(symbol.args[1]);
    if (!diskLines.has(disk)) throw new FactError(name + ": disk " + disk + " is out of range 1.." + count, line);
    if (peg === null || !pegs.includes(peg)) {
      throw new FactError(name + ": unknown peg " + show(symbol.args[1]) + " (pegs: " + pegs.join(", ") + ")", line);
    }
    const earlier = placed[name].get(disk);
    if (earlier && earlier.peg !== peg) {
      throw new FactError(name + ": disk " + disk + " is placed twice in the " + part + " (on " +
        earlier.peg + " at line " + earlier.line + " and on " + peg + ")", line);
    }
    placed[name].set(disk, {peg, line});
  }
  const edges = [];
  for (const {symbol, line} of all) {
    if (symbol.name !== "edge") continue;
    const ends = symbol.args.map(pegName);
    symbol.args.forEach((arg, k) => {
      if (ends[k] === null || !pegs.includes(ends[k])) {
        throw new FactError("edge: unknown peg " + show(arg) + " (pegs: " + pegs.join(", ") + ")", line);
      }
    });
    if (ends[0] === ends[1]) throw new FactError("edge: a move from peg " + ends[0] + " to itself", line);
    if (!edges.some((e) => e[0] === ends[0] && e[1] === ends[1])) edges.push([ends[0], ends[1]]);
  }
  for (let disk = 1; disk <= count; disk++) {
    if (!placed.init_on.has(disk)) {
      throw new FactError("disk " + disk + " has no init_on/2 fact: every disk starts on a peg", diskLines.get(disk));
    }
  }
  // the size limits, checked on the puzzle read (as /api/parse checks them after read_facts)
  if (count > MAX_DISKS) throw new FactError(count + " disks: the page takes at most " + MAX_DISKS, null);
  if (pegs.length > MAX_PEGS) throw new FactError(pegs.length + " pegs: the page takes at most " + MAX_PEGS, null);
  const onPegs = (map) => {
    const out = {};
    for (const disk of [...map.keys()].sort((a, b) => a - b)) {
      const peg = map.get(disk).peg;
      (out[peg] = out[peg] || []).push(disk);
    }
    return out;
  };
  return {pegs, disks: count, start: onPegs(placed.init_on), goal: onPegs(placed.goal_on),
    graph: edges.length ? edges : null, max_moves: moves === null ? null : moves.value};
}

/* One symbol as clingo prints it (`move(4,b,1)`, `move(1,"x y",2)`): {type: "num",
   value} | {type: "str", value} | {type: "fun", name, args}, or null. */
export function parseSymbol(text) {
  try {
    const terms = new Terms(tokenize(text).tokens, null, {negatives: true});
    const found = terms.term();
    const whole = terms.at === terms.tokens.length && !terms.deferred && !terms.tooMany;
    return whole && found.length === 1 ? found[0] : null;
  } catch (error) {
    if (error instanceof FactError) return null;
    throw error;
  }
}

export {pegName, show as showSymbol};
