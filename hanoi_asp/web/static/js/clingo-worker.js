/*
 * A Web Worker that runs clingo (vendored clingo-wasm, see ../vendor/clingo-wasm/) on
 * one program at a time, as the clingo command line with --outf=2: messages in
 * {id, program, args}; out {id, type: "call", call} for every solve call as clingo
 * ends it (an incremental run solves one call per horizon), then {id, type: "done",
 * status, result, errors}: clingo's exit status, its JSON output, its messages.
 * The page ends a run by terminating this worker (clingo cannot be interrupted from
 * inside a busy worker), then starts a fresh one.
 */

import Module from "../vendor/clingo-wasm/clingo.js";

let clingo = null;
let output = [];
let errors = [];
let scanner = null;

async function ready() {
  if (!clingo) {
    clingo = await Module({
      print: (line) => {
        output.push(line);
        if (scanner) scanner.feed(line + "\n");
      },
      printErr: (line) => errors.push(line)
    });
  }
  return clingo;
}

/* Hands every object of the output's "Call" array over as soon as it is closed, so the
   page sees each horizon's verdict while clingo goes on with the next. */
class CallScanner {
  constructor(onCall) {
    this.onCall = onCall;
    this.stack = [];
    this.key = null;
    this.inString = false;
    this.escaped = false;
    this.string = "";
    this.capture = 0;
    this.buffer = "";
  }

  feed(chunk) {
    for (const char of chunk) {
      if (this.capture) this.buffer += char;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === "\\") this.escaped = true;
        else if (char === '"') this.inString = false;
        else this.string += char;
        continue;
      }
      if (char === '"') { this.inString = true; this.string = ""; }
      else if (char === ":") this.key = this.string;
      else if (char === "{" || char === "[") {
        const parent = this.stack[this.stack.length - 1];
        const key = parent && parent.container === "{" ? this.key : null;
        this.stack.push({container: char, key});
        if (char === "{" && !this.capture && this.stack.length === 3 && parent &&
            parent.container === "[" && parent.key === "Call") {
          this.capture = this.stack.length;
          this.buffer = char;
        }
      } else if (char === "}" || char === "]") {
        if (this.capture === this.stack.length) {
          this.capture = 0;
          try { this.onCall(JSON.parse(this.buffer)); } catch (ignored) { /* the end says it */ }
        }
        this.stack.pop();
      }
    }
  }
}

onmessage = async (event) => {
  const {id, program, args} = event.data;
  try {
    const module = await ready();
    output = [];
    errors = [];
    scanner = new CallScanner((call) => postMessage({id, type: "call", call}));
    const status = module.ccall("run", "number", ["string", "string"], [program, args]);
    scanner = null;
    let result = null;
    try { result = JSON.parse(output.join("\n")); } catch (ignored) { result = null; }
    postMessage({id, type: "done", status, result, errors: errors.join("\n")});
  } catch (error) {
    scanner = null;
    postMessage({id, type: "done", status: -1, result: null, errors: String(error)});
  }
};
