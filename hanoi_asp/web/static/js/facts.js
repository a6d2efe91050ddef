/*
 * An .lp instance read in the page, as hanoi_asp/inputs/read_facts.py reads it: only
 * ground facts of peg/1, disk/1, init_on/2, goal_on/2, moves/1 and edge/2 (pools,
 * intervals and integer arithmetic expanded as clingo would), every problem reported
 * with its line.  Nothing in the text is run.
 *
 *   readInstance(text) -> the puzzle ({pegs, disks, start, goal, graph, max_moves}),
 *                         or throws a FactError {message, line}
 */

import {tokenize, statements} from "./asp.js";

export const MAX_FACTS = 20000;
export const MAX_DISKS = 64, MAX_PEGS = 32;
const PREDICATES = {peg: 1, disk: 1, init_on: 2, goal_on: 2, moves: 1, edge: 2};

export class FactError extends Error {
  constructor(message, line) {
    super(message);
    this.line = line === undefined ? null : line;
  }
}

/* -- terms ----------------------------------------------------------------------------- */

/* A parser over one statement's tokens; every term is a list of the symbols it stands
   for (a pool or an interval stands for several). */
class Terms {
  constructor(tokens, line) {
    this.tokens = tokens;
    this.at = 0;
    this.line = line;
    this.count = 0;
  }

  peek() { return this.tokens[this.at]; }
  fail(message) { throw new FactError(message, this.line); }

  expect(value) {
    const token = this.tokens[this.at];
    if (!token || token.value !== value) {
      this.fail("syntax error, unexpected " + (token ? token.value : "end of statement") +
        (value === "." ? " (is a period missing?)" : ", expecting " + value));
    }
    this.at++;
  }

  /* `a;b` alternatives of `x,y` tuples: a list of argument lists. */
  tuples() {
    const out = [];
    for (;;) {
      let alternatives = [[]];
      for (;;) {
        const values = this.term();
        const next = [];
        for (const args of alternatives) for (const v of values) next.push([...args, v]);
        alternatives = next;
        this.count += alternatives.length;
        if (this.count > MAX_FACTS) this.fail("the instance expands to more than " + MAX_FACTS + " facts");
        if (this.peek() && this.peek().value === ",") {
          this.at++;
          if (this.peek() && this.peek().value === ")") { this.trailing = true; break; }
          continue;
        }
        break;
      }
      out.push(...alternatives);
      if (this.peek() && this.peek().value === ";") { this.at++; continue; }
      return out;
    }
  }

  term() {
    const low = this.sum();
    if (this.peek() && this.peek().value === "..") {
      this.at++;
      const high = this.sum();
      const a = this.integer(low), b = this.integer(high);
      if (b - a + 1 > MAX_FACTS) this.fail("the instance expands to more than " + MAX_FACTS + " facts");
      const out = [];
      for (let v = a; v <= b; v++) out.push({type: "num", value: v});
      return out;
    }
    return low;
  }

  integer(values) {
    if (values.length !== 1 || values[0].type !== "num") this.fail("an interval needs integers");
    return values[0].value;
  }

  sum() {
    let left = this.product();
    while (this.peek() && (this.peek().value === "+" || this.peek().value === "-")) {
      const op = this.tokens[this.at++].value, right = this.product();
      left = [{type: "num", value: this.check(op === "+" ? this.integer(left) + this.integer(right)
        : this.integer(left) - this.integer(right))}];
    }
    return left;
  }

  product() {
    let left = this.unary();
    while (this.peek() && this.peek().value === "*") {
      this.at++;
      left = [{type: "num", value: this.check(this.integer(left) * this.integer(this.unary()))}];
    }
    return left;
  }

  check(value) {
    if (value > 2147483647 || value < -2147483648) {
      this.fail("the number " + value + " is past clingo's 32-bit integers");
    }
    return value;
  }

  unary() {
    if (this.peek() && this.peek().value === "-") {
      this.at++;
      return [{type: "num", value: this.check(-this.integer(this.unary()))}];
    }
    return this.primary();
  }

  primary() {
    const token = this.tokens[this.at++];
    if (!token) this.fail("syntax error, unexpected end of statement");
    if (token.type === "number") return [{type: "num", value: this.check(Number(token.value))}];
    if (token.type === "string") return [{type: "str", value: unquote(token.value)}];
    if (token.type === "var") {
      this.fail("variable " + token.value + " in a fact: instance files hold only ground facts");
    }
    if (token.type === "ident") {
      if (this.peek() && this.peek().value === "(") {
        this.at++;
        const args = this.peek() && this.peek().value === ")" ? [[]] : this.tuples();
        this.expect(")");
        return args.map((a) => ({type: "fun", name: token.value, args: a}));
      }
      return [{type: "fun", name: token.value, args: []}];
    }
    if (token.value === "(") {
      this.trailing = false;
      const inner = this.peek() && this.peek().value === ")" ? [[]] : this.tuples();
      const tuple = this.trailing || inner.some((args) => args.length !== 1);
      this.expect(")");
      if (!tuple) return inner.map((args) => args[0]);  // a bracketed term
      return inner.map((args) => ({type: "fun", name: "", args}));
    }
    if (token.value === "@") this.fail("external functions (@f) are not allowed");
    return this.fail("syntax error, unexpected " + token.value);
  }
}

function unquote(token) {
  return token.slice(1, -1).replace(/\\(["\\n])/g, (_, c) => (c === "n" ? "\n" : c));
}

function show(symbol) {
  if (symbol.type === "num") return String(symbol.value);
  if (symbol.type === "str") return JSON.stringify(symbol.value);
  if (!symbol.name) return "(" + symbol.args.map(show).join(",") + (symbol.args.length === 1 ? ",)" : ")");
  return symbol.args.length ? symbol.name + "(" + symbol.args.map(show).join(",") + ")" : symbol.name;
}

/* The peg name a symbol stands for (hanoi_asp.inputs.facts.peg_name), or null. */
function pegName(symbol) {
  if (symbol.type === "num") return String(symbol.value);
  if (symbol.type === "str") return symbol.value;
  return symbol.args.length || !symbol.name ? null : symbol.name;
}

/* -- facts ----------------------------------------------------------------------------- */

const WHAT = {"#show": "ShowSignature", "#const": "Definition", "#external": "External",
  "#minimize": "Minimize", "#maximize": "Minimize", "#heuristic": "Heuristic",
  "#project": "ProjectSignature", "#defined": "Defined", "#edge": "Edge"};

function facts(text) {
  const scanned = tokenize(text);
  if (scanned.problem) throw new FactError(scanned.problem.message, scanned.problem.line);
  const directive = scanned.tokens.find((t) => t.value === "#script" || t.value === "#include");
  if (directive) {
    throw new FactError(directive.value + " is not allowed in an instance file (instance " +
      "files hold only facts)", directive.line);
  }
  const found = [];
  for (const stmt of statements(text)) {
    const tokens = stmt.tokens, first = tokens[0], line = stmt.line;
    if (first.type === "directive") {
      if (first.value === "#program" && tokens[1] && tokens[1].value === "base") continue;
      throw new FactError("only facts are allowed, found a " + (WHAT[first.value] || first.value) +
        " statement", line);
    }
    if (first.value === ":-") throw new FactError("only facts are allowed, found a constraint", line);
    if (tokens.some((t) => t.value === ":-")) {
      throw new FactError("only facts are allowed, found a rule with a body", line);
    }
    if (first.value === "{" || tokens.some((t) => t.value === "{")) {
      throw new FactError("only plain facts are allowed (no choices or aggregates)", line);
    }
    if (first.type === "ident" && first.value === "not") {
      throw new FactError("only positive facts are allowed", line);
    }
    if (first.value === "-") throw new FactError("only positive facts are allowed", line);
    if (first.type !== "ident") throw new FactError("syntax error, unexpected " + first.value, line);
    const terms = new Terms(tokens, line);
    const symbols = terms.primary();
    terms.expect(".");
    for (const symbol of symbols) {
      if (symbol.type !== "fun" || PREDICATES[symbol.name] !== symbol.args.length) {
        const name = symbol.type === "fun" ? symbol.name : show(symbol);
        const arity = symbol.type === "fun" ? symbol.args.length : 0;
        throw new FactError("unknown predicate " + name + "/" + arity + " (expected one of " +
          Object.entries(PREDICATES).map(([p, a]) => p + "/" + a).join(", ") + ")", line);
      }
      found.push({symbol, line});
      if (found.length > MAX_FACTS) {
        throw new FactError("the instance expands to more than " + MAX_FACTS + " facts", line);
      }
    }
  }
  return found;
}

function diskNumber(symbol, fact) {
  const arg = symbol.args[0];
  if (arg.type !== "num" || arg.value < 1) {
    throw new FactError("disks are numbered 1, 2, ...: " + show(symbol), fact.line);
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
  if (count > MAX_DISKS) throw new FactError(count + " disks: the page takes at most " + MAX_DISKS, null);
  if (pegs.length > MAX_PEGS) throw new FactError(pegs.length + " pegs: the page takes at most " + MAX_PEGS, null);
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
    const terms = new Terms(tokenize(text).tokens, null);
    const found = terms.term();
    return found.length === 1 && terms.at === terms.tokens.length ? found[0] : null;
  } catch (error) {
    if (error instanceof FactError) return null;
    throw error;
  }
}

export {pegName, show as showSymbol};
