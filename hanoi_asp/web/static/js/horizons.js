/*
 * Asking a student's encoding, in the page, "is there a plan of exactly h moves?" for
 * some horizons h, with clingo in a Web Worker (clingo.js), as the engine's solvers
 * do (hanoi_asp/engine/solver.py):
 *
 *  - a one-shot encoding (the quickstart's, moves(M) as a fact) is ground afresh for
 *    every horizon: one clingo run per horizon;
 *  - an incremental encoding (#program base / step(t) / check(t) with #external
 *    query(t)) runs in clingo's own incremental mode (#include <incmode>, no script):
 *    one run grounds step(1), step(2), ... and solves at every step, so what clingo
 *    learns at one horizon serves the next; the horizons not asked are cut at once by
 *    a constraint in check(t), so they cost no search.
 *
 * The encoding goes first in the program, so clingo's line numbers are the encoding's
 * own.  Every answer's move/3 atoms become steps as the engine reads them
 * (extract_steps: two moves at a step, a step without a move, a move to a non-peg are
 * malformed answers); the caller replays them with domain.js's simulator.
 */

import {clingo} from "./clingo.js";
import {isIncremental} from "./asp.js";
import {factsText} from "./domain.js";
import {parseSymbol, pegName, showSymbol} from "./facts.js";

export const ENCODING_NAME = "encoding.lp";

/*
 * Ask `encoding` about `horizons` (ascending) on `puzzle`.  first: stop at the first
 * horizon with a plan (the upward search), else ask them all.  seconds: the time limit
 * for all of them.  onRun(run) after each horizon.  Resolves to {runs, error, warnings,
 * stopped, mode}: runs [{horizon, status: "SAT" | "UNSAT" | "UNKNOWN", time_s, choices,
 * conflicts, atoms, rules, steps: [[disk, peg], ...] | null, malformed: message | null}],
 * error {message, line} when clingo refused the encoding, stopped "timeout" | "stop".
 */
export async function askHorizons(puzzle, encoding, horizons, options = {}) {
  const mode = isIncremental(encoding.text) ? "incremental" : "oneshot";
  const ask = mode === "incremental" ? askIncremental : askOneShot;
  return {mode, ...(await ask(puzzle, encoding, horizons, options))};
}

function base(puzzle, encoding) {
  return encoding.text + "\n#program base.\n" + factsText(puzzle, {moves: false});
}

async function askOneShot(puzzle, encoding, horizons, {first = false, seconds = 30, signal, onRun}) {
  const runs = [], warnings = [], deadline = performance.now() + seconds * 1000;
  for (const horizon of horizons) {
    const left = (deadline - performance.now()) / 1000;
    if (left <= 0) return {runs, warnings, error: null, stopped: "timeout"};
    const program = base(puzzle, encoding) + "moves(" + horizon + ").\n";
    const answer = await clingo.run(program, "--outf=2 --stats 1", {seconds: left, signal});
    if (answer.stopped) {
      runs.push(unknown(horizon, answer.seconds));
      if (onRun) onRun(runs[runs.length - 1]);
      return {runs, warnings, error: null, stopped: answer.stopped};
    }
    const failed = failure(answer, encoding);
    if (failed) return {runs, warnings, error: failed, stopped: null};
    collect(warnings, answer.errors, encoding);
    const call = answer.result.Call[answer.result.Call.length - 1] || {};
    const stats = answer.result.Stats || {};
    const core = stats.Core || {}, lp = stats.LP || {};
    const run = verdict(horizon, call, answer.result.Result, puzzle);
    Object.assign(run, {time_s: answer.seconds, choices: core.Choices, conflicts: core.Conflicts,
      atoms: lp.Atoms, rules: lp.Rules ? lp.Rules.Original : undefined});
    runs.push(run);
    if (onRun) onRun(run);
    if (first && run.status === "SAT") break;
  }
  return {runs, warnings, error: null, stopped: null};
}

async function askIncremental(puzzle, encoding, horizons, {first = false, seconds = 30, signal, onRun}) {
  const runs = [], warnings = [];
  if (!horizons.length) return {runs, warnings, error: null, stopped: null};
  const last = horizons[horizons.length - 1];
  const program = base(puzzle, encoding) +
    "#include <incmode>.\n__hanoi_ask(" + horizons.join(";") + ").\n" +
    "#program check(t).\n:- query(t), not __hanoi_ask(t).\n";
  const stop = first ? "" : ' -c istop="UNKNOWN"';
  let previous = 0, callsSeen = 0;
  const answer = await clingo.run(program, "--outf=2 -c imax=" + (last + 1) + stop + " 1", {
    seconds, signal,
    onCall: (call, elapsed) => {
      const horizon = callsSeen++;
      const took = elapsed - previous;
      previous = elapsed;
      if (!horizons.includes(horizon)) return;
      const run = verdict(horizon, call, null, puzzle);
      run.time_s = took;
      runs.push(run);
      if (onRun) onRun(run);
    }
  });
  if (answer.stopped) {
    const next = horizons.find((h) => !runs.some((r) => r.horizon === h));
    if (next !== undefined) {
      runs.push(unknown(next, answer.seconds - previous));
      if (onRun) onRun(runs[runs.length - 1]);
    }
    return {runs, warnings, error: null, stopped: answer.stopped};
  }
  const failed = failure(answer, encoding);
  if (failed) return {runs: [], warnings, error: failed, stopped: null};
  collect(warnings, answer.errors, encoding);
  return {runs, warnings, error: null, stopped: null};
}

function unknown(horizon, seconds) {
  return {horizon, status: "UNKNOWN", time_s: seconds, steps: null, malformed: null};
}

/* One call's answer: SAT with its steps (or a malformed answer), else UNSAT. */
function verdict(horizon, call, result, puzzle) {
  const witnesses = call.Witnesses || [];
  const run = {horizon, status: witnesses.length ? "SAT" : result === "UNKNOWN" ? "UNKNOWN" : "UNSAT",
    steps: null, malformed: null};
  if (witnesses.length) {
    try {
      run.steps = extractSteps(witnesses[0].Value || [], horizon, puzzle);
    } catch (error) {
      run.malformed = error.message;
      if (error.step) run.malformedAt = {step: error.step, moves: error.moves};
    }
  }
  return run;
}

/* The move(D,P,T) atoms of a model as one [disk, peg] per step 1..horizon (the engine's
   extract_steps, with its words): a step with two moves or none throws an Error whose
   `step` is the first such step and `moves` every step's moves, sorted. */
export function extractSteps(atoms, horizon) {
  const byStep = new Map();
  for (const text of atoms) {
    if (!text.startsWith("move(")) continue;
    const symbol = parseSymbol(text);
    if (!symbol || symbol.type !== "fun" || symbol.name !== "move" || symbol.args.length !== 3) continue;
    const [disk, peg, step] = symbol.args;
    const name = pegName(peg);
    if (disk.type !== "num" || step.type !== "num") {
      throw new Error("the encoding shows a malformed move: " + showSymbol(symbol));
    }
    if (name === null) throw new Error("the encoding shows a move to a non-peg: " + showSymbol(symbol));
    if (step.value < 1 || step.value > horizon) continue;
    if (!byStep.has(step.value)) byStep.set(step.value, []);
    byStep.get(step.value).push([disk.value, name]);
  }
  const order = (a, b) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  for (const moves of byStep.values()) moves.sort(order);
  for (let t = 1; t <= horizon; t++) {
    const found = byStep.get(t) || [];
    if (found.length === 1) continue;
    const moved = found.map(([disk, peg]) => "disk " + disk + " to " + peg).join(" and ");
    const times = found.length === 2 ? "twice" : found.length + " times";
    const error = new Error(found.length
      ? "the encoding's answer moves " + times + " at step " + t + ": " + moved
      : "the encoding's answer has no move at step " + t);
    error.step = t;
    error.moves = byStep;
    throw error;
  }
  return Array.from({length: horizon}, (_, k) => byStep.get(k + 1)[0]);
}

const ERROR_STATUS = new Set([33, 65, 128, -1]);

/* clingo's first error, at the encoding's own line ({message, line}), or null. */
function failure(answer, encoding) {
  if (answer.result && !ERROR_STATUS.has(answer.status)) return null;
  const lines = encoding.text.split("\n").length;
  const messages = answer.errors.split(/\n\s*\n/).map((m) => m.trim()).filter(Boolean);
  const detail = messages.find((m) => /error/.test(m)) || messages[0] || "clingo failed";
  const placed = /^-:(\d+):\S*\s*([\s\S]*)$/.exec(detail);
  if (!placed) return {message: detail.replace(/\*\*\* ERROR: \(clingo\): /, ""), line: null};
  let line = Number(placed[1]);
  let rest = placed[2].replace(/-:(\d+):/g, "line $1:").replace(/\s+/g, " ").trim();
  if (line > lines) {  // past the encoding: its last statement is not closed
    line = lines;
    rest += " (at the end of the encoding: is a period missing?)";
  }
  return {message: rest, line};
}

/* clingo's warnings about the encoding, one line each, placed as encoding.lp:line:col. */
function collect(warnings, errors, encoding) {
  const lines = encoding.text.split("\n").length;
  for (const message of errors.split(/\n\s*\n/)) {
    const text = message.replace(/\s+/g, " ").trim();
    const placed = /^-:(\d+):/.exec(text);
    if (!text || /error/.test(text) || !placed || Number(placed[1]) > lines) continue;
    const line = text.replace(/^-:/, encoding.name + ":");
    if (!warnings.includes(line)) warnings.push(line);
  }
}
