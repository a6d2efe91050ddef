/*
 * Shrinking in the page, as `grade` shrinks (hanoi_asp/teaching/shrink.py): the first
 * failure is made as small as it goes, greedily, in hypothesis' manner: fewest disks
 * first, then fewest pegs, the shortest horizon, then the simplest start and goal (no
 * move graph, one tower at the start, fewer goal facts).  Each smaller candidate is
 * re-checked against breadth-first search (search.js) and kept only if the encoding
 * still fails there in the same way.  Then the reason: the student's plan and the rule
 * of the puzzle its first illegal move breaks, or the reference plan and the student's
 * rules that reject it (grading.js whyRejected).
 */

import {mentionsEdges} from "./asp.js";
import {asciiBoard, factsText, presetGraph, replay, stateOf} from "./domain.js";
import {EXTRA_HORIZONS, gradeTrial} from "./grading.js";
import {askHorizons} from "./horizons.js";
import {distances} from "./search.js";
import {whyRejected} from "./why-rejected.js";

export const SHRINK_SECONDS = 20, CANDIDATE_SECONDS = 2, SHOWN_MOVES = 8;
const MAX_OPTIMUM = 64;
const SHRINKABLE = ["illegal-plan", "goal-not-reached", "too-strict", "longer-than-optimal", "horizons-differ"];

function reference(puzzle) {
  const table = distances(puzzle);
  if (!table) return {optimum: null, plan: null, known: false};
  const start = stateOf(puzzle, puzzle.start), d = table.distance(start);
  return d < 0 ? {optimum: null, plan: null, known: true} : {optimum: d, plan: table.plan(start), known: true};
}

function size(item) {
  const p = item.puzzle;
  return [p.disks, p.pegs.length, item.horizon, p.graph ? 1 : 0,
    Object.values(p.start).filter((d) => d.length).length,
    Object.values(p.goal).reduce((n, d) => n + d.length, 0)];
}

function smaller(a, b) {
  const x = size(a), y = size(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/* The first way the encoding fails on `puzzle` at `horizons`: {puzzle, horizon, kind}. */
export async function failure(encoding, puzzle, horizons, {seconds, signal}) {
  const {optimum, known} = reference(puzzle);
  if (!known) return null;
  let asked = horizons.slice();
  if (optimum !== null && !asked.includes(optimum) && optimum <= Math.max(0, ...asked)) asked.push(optimum);
  asked = [...new Set(asked)].sort((a, b) => a - b);
  const trial = {name: "candidate", puzzle, optimum, horizons: asked};
  const {grade} = await gradeTrial(encoding, trial, {seconds, signal});
  const found = grade.findings.find((f) => SHRINKABLE.includes(f.kind) && f.horizon !== null);
  return found ? {puzzle, horizon: found.horizon, kind: found.kind} : null;
}

export async function shrink(encoding, item, {seconds, signal, budget = SHRINK_SECONDS}) {
  const graphs = mentionsEdges(encoding.text);
  const deadline = performance.now() + budget * 1000;
  let improved = true;
  while (improved && performance.now() < deadline) {
    improved = false;
    for (const [puzzle, horizons] of candidates(item, graphs)) {
      if (performance.now() >= deadline) break;
      const left = Math.min(seconds, CANDIDATE_SECONDS, (deadline - performance.now()) / 1000);
      const found = await failure(encoding, puzzle, horizons, {seconds: left, signal});
      if (found && found.kind === item.kind && smaller(found, item)) {
        item = found;
        improved = true;
        break;
      }
    }
  }
  return item;
}

function* candidates(item, graphs) {
  const {puzzle, horizon} = item;
  for (const s of fewerDisks(puzzle)) yield [s, horizonsFor(s, item)];
  for (const s of fewerPegs(puzzle)) yield [s, horizonsFor(s, item)];
  if (item.kind !== "too-strict") for (let h = 0; h < horizon; h++) yield [puzzle, [h]];
  for (const s of simpler(puzzle)) yield [s, horizonsFor(s, item)];
  if (graphs) for (const s of fewerDisks(puzzle)) for (const g of onGraphs(s)) yield [g, horizonsFor(g, item)];
}

function onGraphs(puzzle) {
  if (puzzle.graph) return [];
  return ["linear", "cyclic"].map((preset) => ({...puzzle, graph: presetGraph(preset, puzzle.pegs)}))
    .filter((p) => { const r = reference(p); return r.optimum !== null && r.optimum <= MAX_OPTIMUM; });
}

function horizonsFor(puzzle, item) {
  const {optimum, known} = reference(puzzle);
  if (!known) return [];
  if (optimum === null) return Array.from({length: Math.min(item.horizon, 6) + 1}, (_, h) => h);
  if (item.kind === "too-strict") return [optimum];
  const asked = new Set([optimum, optimum + 1, Math.min(item.horizon, optimum + EXTRA_HORIZONS)]);
  if (optimum > 0 && (item.kind === "horizons-differ" || item.horizon < optimum)) asked.add(optimum - 1);
  return [...asked].sort((a, b) => a - b);
}

function without(placement, gone) {
  const out = {};
  for (const [peg, disks] of Object.entries(placement)) {
    const kept = disks.filter((d) => d !== gone).map((d) => d - (d > gone ? 1 : 0));
    if (kept.length) out[peg] = kept;
  }
  return out;
}

function fewerDisks(puzzle) {
  const out = [];
  if (puzzle.disks <= 1) return out;
  for (let gone = puzzle.disks; gone >= 1; gone--) {
    out.push({...puzzle, disks: puzzle.disks - 1, start: without(puzzle.start, gone),
      goal: without(puzzle.goal, gone)});
  }
  return out;
}

function fewerPegs(puzzle) {
  const out = [];
  if (puzzle.pegs.length <= 2) return out;
  for (const gone of puzzle.pegs.slice().reverse()) {
    const pegs = puzzle.pegs.filter((p) => p !== gone);
    let graph = null;
    if (puzzle.graph) {
      graph = puzzle.graph.filter((e) => !e.includes(gone));
      if (!graph.length) continue;
    }
    const goal = Object.fromEntries(Object.entries(puzzle.goal).filter(([p]) => p !== gone));
    for (const onto of pegs) {
      const start = Object.fromEntries(Object.entries(puzzle.start).filter(([p]) => p !== gone));
      const moved = [...(start[onto] || []), ...(puzzle.start[gone] || [])].sort((a, b) => a - b);
      if (moved.length) start[onto] = moved;
      out.push({...puzzle, pegs, start, goal, graph});
      if (!(puzzle.start[gone] || []).length) break;  // an empty peg: where its disks go does not matter
    }
  }
  return out;
}

function simpler(puzzle) {
  const out = [];
  if (puzzle.graph) out.push({...puzzle, graph: null});
  const every = Array.from({length: puzzle.disks}, (_, k) => k + 1);
  for (const peg of puzzle.pegs) out.push({...puzzle, start: {[peg]: every.slice()}});
  for (const [peg, disks] of Object.entries(puzzle.goal)) {
    for (const disk of disks) {
      const goal = {...puzzle.goal, [peg]: disks.filter((d) => d !== disk)};
      out.push({...puzzle, goal: Object.fromEntries(Object.entries(goal).filter(([, d]) => d.length))});
    }
  }
  return out;
}

/* -- the reason ------------------------------------------------------------------------ */

const BROKEN_RULES = [
  ["not on top", "only the top disk of a peg may move"],
  ["smaller disk", "a larger disk may never lie on a smaller one"],
  ["move graph", "moves must follow the move graph (edge/2)"],
  ["already on", "a move must take the disk to another peg"]
];

export function illegal(puzzle, steps) {
  const replayed = replay(puzzle, steps);
  if (replayed.ok) return {reason: "the plan replays (the failure is elsewhere)", board: null};
  if (replayed.kind === "goal-not-reached") {
    return {reason: replayed.message + "; the rule broken: the goal must hold after the last step",
      board: "after the last step:\n" + asciiBoard(puzzle, replayed.state)};
  }
  const target = puzzle.pegs.indexOf(replayed.target);
  if (target < 0) return {reason: replayed.message, board: null};  // no rule: no such peg
  const found = BROKEN_RULES.find(([key]) => replayed.message.includes(key));
  const after = replayed.state.slice();
  if (replayed.disk >= 1 && replayed.disk <= after.length) after[replayed.disk - 1] = target;
  return {reason: replayed.message + "; the rule broken: " + (found ? found[1] : replayed.message),
    board: "before step " + replayed.step + ":\n" + asciiBoard(puzzle, replayed.state) + "\nafter step " +
      replayed.step + " (disk " + replayed.disk + " -> " + replayed.target + "):\n" + asciiBoard(puzzle, after)};
}

/* The student's steps as solve --json's moves, legal or not (from: where the disk lay). */
export function asMoves(puzzle, steps) {
  const where = {};
  stateOf(puzzle, puzzle.start).forEach((peg, k) => { where[k + 1] = puzzle.pegs[peg]; });
  return steps.map(([disk, to], k) => {
    const move = {step: k + 1, disk, from: where[disk] === undefined ? null : where[disk], to};
    where[disk] = to;
    return move;
  });
}

/* The counterexample of a shrunk failure, as grade --json's "counterexample". */
export async function describe(encoding, item, {seconds, signal}) {
  const {puzzle, horizon} = item;
  let kind = item.kind;
  const base = {instance: factsText({...puzzle, max_moves: horizon}), pegs: puzzle.pegs.length,
    disks: puzzle.disks, horizon, kind, plan: [], reason: "fails at " + horizon + " moves", rules: []};
  if (["illegal-plan", "goal-not-reached", "horizons-differ"].includes(kind)) {
    const asked = await askHorizons(puzzle, encoding, [horizon], {seconds, signal});
    const run = asked.runs[0];
    if (run && run.malformed) return {...base, reason: "at " + horizon + " moves: " + run.malformed};
    if (run && run.steps) {
      const told = illegal(puzzle, run.steps);
      return {...base, plan: asMoves(puzzle, run.steps), reason: told.reason, board: told.board};
    }
  }
  const {optimum, plan} = reference(puzzle);
  if (optimum === null || !plan) return base;
  if (kind === "too-strict" && await hasLonger(encoding, puzzle, optimum, {seconds, signal})) {
    kind = "longer-than-optimal";
  }
  const shown = plan.slice(0, SHOWN_MOVES).map((m) => "disk " + m.disk + " to " + m.to).join(", ");
  const more = plan.length > SHOWN_MOVES ? " and " + (plan.length - SHOWN_MOVES) + " more moves" : "";
  const head = "the encoding has no plan of " + optimum + " moves, but this one (the reference's, " +
    "legal, reaching the goal) is: " + shown + more;
  const rejection = await whyRejected(encoding, puzzle, plan, {seconds: 10, signal});
  return {...base, instance: factsText({...puzzle, max_moves: optimum}), horizon: optimum, kind, plan,
    reason: rejection ? head + ". It is rejected by: " + rejection.reason : head,
    rules: rejection ? rejection.rules : []};
}

async function hasLonger(encoding, puzzle, optimum, {seconds, signal}) {
  const horizons = Array.from({length: EXTRA_HORIZONS}, (_, k) => optimum + 1 + k);
  const trial = {name: "longer", puzzle, optimum, horizons};
  const {grade} = await gradeTrial(encoding, trial, {seconds: Math.min(seconds, CANDIDATE_SECONDS * 5), signal});
  return Object.values(grade.answers).includes("SAT") && grade.passed;
}

/* The failure on `puzzle` (a failing instance or random puzzle, asked `horizons`),
   shrunk and told; null when it cannot be re-checked (too large for breadth-first
   search) or does not fail again. */
export async function firstCounterexample(encoding, puzzle, horizons, {seconds, signal}) {
  const found = await failure(encoding, puzzle, horizons, {seconds, signal});
  if (!found) return null;
  return describe(encoding, await shrink(encoding, found, {seconds, signal}), {seconds, signal});
}
