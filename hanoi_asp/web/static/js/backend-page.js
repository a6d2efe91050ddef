/*
 * The page's own back end, for the static site (`hanoi-asp site`): the playground's API
 * answered in the page, from site.json (the texts and the reference answers hanoi-asp
 * computed at export) and clingo compiled to WebAssembly in a Web Worker.  Each call
 * answers {ok, status, data} with the JSON the server's endpoint gives, so the rest of
 * the page cannot tell the back ends apart; where the page can do less than the server
 * (no proven lower bounds beyond breadth-first search, no unsatisfiable cores, no
 * shrinking) its answers say so.
 *
 *   solve    the upward search of the student's encoding from a lower bound (breadth-
 *            first search's distance for puzzles it can enumerate, the optimum stored at
 *            export, else the disks off their goal peg) or from 0 (bound "none"), or
 *            one horizon (moves); every plan replayed by domain.js before it is shown.
 *            The engine's own encoding on an instance of the site answers with the
 *            answer stored at export, as serve's engine answers at once.
 *   explain  the same, with the encoding rule by rule and why no shorter plan exists
 *   grade    grade.js's verdicts over the instance, the teaching set and random puzzles
 *   hint     from breadth-first search, or the stored reference plan
 */

import {mentionsEdges, sections} from "./asp.js";
import {asciiBoard, factsText, graphKind, legalMove, pythonRepr, replay, stateOf} from "./domain.js";
import {FactError, readInstance} from "./facts.js";
import {EncodingProblem, checkWhole, gradeAll} from "./grading.js";
import {ENCODING_NAME, askHorizons} from "./horizons.js";
import {randomTrials} from "./random-puzzles.js";
import {firstCounterexample} from "./shrink.js";
import {PLAN_NAME, PlanProblem, readPlan} from "./plan-text.js";
import {STATE_LIMIT, distances, positions} from "./search.js";

const DEFAULT_ENCODING = "incremental.lp";
const TITLES = {
  "incremental.lp": "the engine's incremental encoding (default)",
  "quickstart.lp": "the clingo quickstart encoding"
};
const INSTANCE = "instance.lp";
const HORIZON_CAP = 4096;
const MAX_RANDOM = 300;

/* The reference answer breadth-first search gives in the page ({optimum (null: no plan),
   plan, source: "page-bfs", argument}), or null past search.js's STATE_LIMIT positions. */
export function bfsReference(puzzle) {
  const table = distances(puzzle);
  if (!table) return null;
  const start = stateOf(puzzle, puzzle.start), d = table.distance(start);
  return {optimum: d < 0 ? null : d, plan: d < 0 ? null : table.plan(start), source: "page-bfs",
    argument: "breadth-first search in the page: the exact distance, over all " +
      positions(puzzle).toLocaleString("en") + " positions"};
}

/* The lower bound the upward search starts from, with its argument (the engine's
   bounds.lower_bound: `none`, `misplaced`, or the best, here the reference's exact
   optimum); `reference` is the puzzle's reference answer (bfsReference, or the one
   stored at export) or null. */
export function lowerBound(puzzle, choice, reference) {
  if (choice === "none") {
    return {value: 0, name: "none", argument: "no bound used: every shorter horizon refuted by clingo"};
  }
  if (choice !== "misplaced" && reference && reference.optimum !== null) {
    return {value: reference.optimum, name: reference.source, argument: reference.argument};
  }
  const goal = stateOf(puzzle, puzzle.goal), start = stateOf(puzzle, puzzle.start);
  const off = goal.filter((peg, k) => peg >= 0 && peg !== start[k]).length;
  return {value: off, name: "misplaced-disks",
    argument: off + " disk(s) start off their goal peg; each moves at least once, one per move"};
}

/* The reference grade compares an instance with (grade.py's: the optimum within the
   instance's moves/1; none when no plan fits in it). */
export function withinMoves(reference, puzzle) {
  const cap = puzzle.max_moves;
  if (!reference || reference.optimum === null || cap === null || cap === undefined ||
      reference.optimum <= cap) return reference;
  return {...reference, optimum: null, plan: null};
}

export function pageBackend(site) {
  const encodings = [
    ...site.encodings.map((e) => ({name: e.name, title: TITLES[e.name] || e.name, text: e.text,
      default: e.name === DEFAULT_ENCODING})),
    ...site.exercises.map((e) => ({name: e.name, text: e.text, default: false,
      title: "exercise: " + e.name.replace(/\.lp$/, "").replace(/-/g, " ")}))
  ];
  const defaultEncoding = encodings.find((e) => e.default) || encodings[0];
  const stored = site.instances.map((item) => ({...item, puzzle: parsed(item.text)}));

  function parsed(text) {
    try { return readInstance(text); } catch (error) { return null; }
  }

  /* The stored answers of an instance with this very puzzle (start included). */
  function storedFor(puzzle) {
    const key = JSON.stringify(canonical(puzzle, true));
    return stored.find((s) => s.puzzle && JSON.stringify(canonical(s.puzzle, true)) === key) || null;
  }

  function instanceOf(body) {
    if ((body.format || "lp") !== "lp") {
      throw new FactError("the page reads .lp facts only: the " + body.format + " format needs " +
        "hanoi-asp serve (hanoi-asp site exports every instance as facts)", null);
    }
    return readInstance(String(body.instance || ""));
  }

  function encodingOf(body) {
    if (body.encoding === null || body.encoding === undefined) {
      return {name: defaultEncoding.name, text: defaultEncoding.text};
    }
    return {name: ENCODING_NAME, text: String(body.encoding)};
  }

  async function call(name, body = {}, signal) {
    try {
      return {ok: true, status: 200, data: await answer(name, body, signal)};
    } catch (error) {
      if (error && error.name === "AbortError") throw error;
      if (error instanceof FactError) return refuse(INSTANCE, "instance", error.line, error.message);
      if (error instanceof PlanProblem) return refuse(PLAN_NAME, "plan", error.line, error.message);
      if (error instanceof EncodingProblem) {
        return refuse(encodingOf(body).name, "encoding", error.line, error.message, error.illegal);
      }
      return {ok: false, status: 500, data: {error: "the page failed: " + error.message, where: null, line: null}};
    }
  }

  async function answer(name, body, signal) {
    switch (name) {
      case "encodings": return {encodings};
      case "examples": return {examples: stored.map((s) => ({name: s.name, text: s.text, format: "lp"}))};
      case "parse": return instanceOf(body);
      case "solve": return solve(instanceOf(body), encodingOf(body), body, signal);
      case "explain": return explain(instanceOf(body), encodingOf(body), body, signal);
      case "grade": return grade(body, signal);
      case "hint": return hint(instanceOf(body));
      case "check": return check(instanceOf(body), body);
      default: throw new Error("no such call: " + name);
    }
  }

  /* -- solve and explain --------------------------------------------------------------- */

  /* The reference answer for a puzzle's start: breadth-first search in the page, else the
     optimum stored at export; {optimum (null: no plan), plan, source, argument} or null. */
  function referenceOf(puzzle) {
    const searched = bfsReference(puzzle);
    if (searched) return searched;
    const found = storedFor(puzzle);
    if (found && found.answers.optimum !== null) {
      return {optimum: found.answers.optimum, plan: found.answers.plan, source: "stored",
        argument: "the optimum hanoi-asp proved when the site was exported"};
    }
    return null;
  }

  async function search(puzzle, encoding, body, signal, onRun) {
    checkWhole(encoding);
    const seconds = Number(body.timeout) || 30, began = performance.now();
    const exact = body.moves === null || body.moves === undefined ? null : Number(body.moves);
    const reference = referenceOf(puzzle);
    const bound = lowerBound(puzzle, body.bound || "auto", reference);
    const result = {version: 1, instance: INSTANCE, result: "UNKNOWN", length: null,
      lower_bound: bound.value, upper_bound: null, plan: [], time_s: 0, bound, proof: "",
      mode: null, max_moves: puzzle.max_moves, moves: exact, stopped: null, horizons: [],
      method: "asp", proven_minimal: false, unreachable: false, graph: graphKind(puzzle),
      threads: 1, programs: [encoding.name], gap: null, first_plan: null, timings: {},
      warnings: [], backend: "page", reference: reference && {optimum: reference.optimum, source: reference.source}};
    const done = () => { result.time_s = (performance.now() - began) / 1000; return result; };
    if (reference && reference.optimum === null && exact === null) {
      Object.assign(result, {result: "UNSATISFIABLE", unreachable: true, lower_bound: null,
        proof: "no plan of any length: " + reference.argument + " reaches no goal position " +
          "(clingo was not run)"});
      return done();
    }
    const known = storedFor(puzzle);
    if (body.encoding == null && exact === null && bound.name !== "none" && known &&
        known.answers.optimum !== null && known.answers.plan.length === known.answers.optimum) {
      // the engine's own encoding on an instance of the site: hanoi-asp's answer from the
      // export stands for the engine's fast path (as serve answers at once)
      const replayed = replay(puzzle, known.answers.plan.map((m) => [m.disk, m.to]));
      if (replayed.ok) {
        Object.assign(result, {result: "OPTIMUM FOUND", length: known.answers.optimum,
          upper_bound: known.answers.optimum, lower_bound: known.answers.optimum, gap: 0,
          plan: replayed.moves, proven_minimal: true, programs: ["the answer stored at export"],
          proof: known.answers.proof + " (hanoi-asp's answer when the site was exported; the " +
            "page's simulator replayed the plan; clingo in the page was not run: edit the " +
            "encoding, or start at 0, to run it)"});
        return done();
      }
    }
    let horizons;
    if (exact !== null) {
      horizons = [exact];
    } else {
      const cap = puzzle.max_moves !== null ? puzzle.max_moves
        : reference ? reference.optimum + 20 : HORIZON_CAP;
      if (bound.value > cap) {
        Object.assign(result, {result: "UNSATISFIABLE", proof: "no plan within moves(" + cap +
          "): the lower bound " + bound.value + " (" + bound.name + ") is above it (clingo was not run)"});
        return done();
      }
      horizons = Array.from({length: cap - bound.value + 1}, (_, k) => bound.value + k);
    }
    const asked = await askHorizons(puzzle, encoding, horizons, {first: true, seconds, signal, onRun});
    if (asked.stopped === "stop") throw new DOMException("stopped", "AbortError");
    if (asked.error) throw new EncodingProblem(asked.error.message, asked.error.line);
    result.mode = asked.mode;
    result.warnings = asked.warnings;
    result.horizons = asked.runs.map((r) => ({horizon: r.horizon, status: r.status,
      time_s: r.time_s, choices: r.choices, conflicts: r.conflicts, atoms: r.atoms, rules: r.rules,
      phase: "full"}));
    const found = asked.runs.find((r) => r.status === "SAT");
    const refuted = asked.runs.filter((r) => r.status === "UNSAT").map((r) => r.horizon);
    if (found) {
      const steps = found.malformed ? null : found.steps;
      const replayed = steps ? replay(puzzle, steps) : null;
      if (!replayed || !replayed.ok) {
        const problem = new EncodingProblem("the encoding's plan of " + found.horizon + " moves is " +
          "illegal or incomplete: " + (replayed ? replayed.message : found.malformed));
        if (replayed) problem.illegal = {horizon: found.horizon, steps, ...replayed};
        throw problem;
      }
      const m = found.horizon;
      Object.assign(result, {length: m, upper_bound: m, plan: replayed.moves});
      if (exact !== null) {
        Object.assign(result, {result: "SATISFIABLE", proof: "a plan of exactly " + m + " moves (not claimed minimal)",
          gap: reference && reference.optimum !== null ? m - reference.optimum : null});
      } else if (reference && reference.optimum !== null && m > reference.optimum) {
        Object.assign(result, {result: "SATISFIABLE", lower_bound: reference.optimum, gap: m - reference.optimum,
          proof: "not minimal: a plan of " + reference.optimum + " moves exists (" + reference.argument +
            "), but the encoding refuted " + span(refuted.filter((h) => h >= reference.optimum)) +
            ": it rules out legal plans (grade it)"});
      } else {
        const from = bound.value;
        const why = m === from && from > 0
          ? "the plan meets the lower bound " + from + " (" + bound.name + ": " + bound.argument + ")"
          : m === 0 ? "the start meets the goal"
            : "horizons " + span(refuted) + " proven unsatisfiable by clingo" +
              (from > 0 ? ", and none shorter than the lower bound " + from + " (" + bound.name + ")" : "");
        Object.assign(result, {result: "OPTIMUM FOUND", proven_minimal: true, gap: 0, lower_bound: m,
          proof: "minimal: " + why});
      }
      return done();
    }
    result.lower_bound = refuted.length ? refuted[refuted.length - 1] + 1 : bound.value;
    if (asked.stopped === "timeout") {
      Object.assign(result, {result: "UNKNOWN", stopped: "timeout",
        proof: "stopped by the time limit of " + seconds + " s" + (refuted.length ? " after refuting " +
          span(refuted) : " before clingo answered")});
    } else if (exact !== null) {
      Object.assign(result, {result: "UNSATISFIABLE", proof: "no plan of exactly " + exact +
        " moves: clingo refuted that horizon with this encoding"});
    } else if (puzzle.max_moves !== null) {
      Object.assign(result, {result: "UNSATISFIABLE", proof: "no plan within moves(" + puzzle.max_moves +
        "): horizons " + span(refuted) + " proven unsatisfiable by clingo"});
    } else {
      Object.assign(result, {result: "UNKNOWN", stopped: "horizons",
        proof: "the encoding refuted every horizon up to " + horizons[horizons.length - 1] +
          ", though a plan of " + reference.optimum + " moves exists (" + reference.argument + ")"});
    }
    return done();
  }

  async function solve(puzzle, encoding, body, signal) {
    return search(puzzle, encoding, body, signal);
  }

  async function explain(puzzle, encoding, body, signal) {
    const result = await search(puzzle, encoding, {...body, moves: null}, signal);
    let why = null;
    if (result.result === "OPTIMUM FOUND" && result.length) {
      const horizon = result.length - 1;
      const run = result.horizons.find((h) => h.horizon === horizon);
      const reference = referenceOf(puzzle);
      const agrees = reference && reference.optimum === result.length
        ? "; breadth-first search agrees: the optimum is " + result.length : "";
      why = run ? {horizon, status: run.status, core: [],
        reason: "clingo found no plan of " + horizon + " moves with this encoding (it refuted that " +
          "horizon)" + agrees + " (the page names no goal facts that cannot hold together: " +
          "hanoi-asp explain does)"}
        : {horizon, status: "UNSAT", core: [], reason: "below the lower bound " + result.bound.value +
          " (" + result.bound.name + "): " + result.bound.argument};
    }
    return {instance: INSTANCE, facts: factsText(puzzle), encoding: encoding.name, extras: [],
      sections: sections(encoding.text), horizons: result.horizons, why_not_shorter: why, result};
  }

  /* -- grade ----------------------------------------------------------------------------- */

  async function grade(body, signal) {
    if (body.encoding === null || body.encoding === undefined) {
      throw new EncodingProblem("grade needs an encoding: the one in the editor is the shipped one");
    }
    const encoding = {name: ENCODING_NAME, text: String(body.encoding)};
    const seconds = Number(body.timeout) || 30;
    checkWhole(encoding);
    const items = [];
    const notes = [];
    if (body.instance !== undefined && body.instance !== null && String(body.instance).trim()) {
      const puzzle = instanceOf(body);
      const reference = withinMoves(referenceOf(puzzle), puzzle);
      if (reference) items.push({name: INSTANCE, puzzle, ...reference});
      else notes.push(INSTANCE + ": not graded: no reference answer in the page (over " +
        STATE_LIMIT.toLocaleString("en") + " positions for breadth-first search)");
    }
    for (const name of site.teaching) {
      const item = stored.find((s) => s.name === name);
      if (!item || !item.puzzle) continue;
      const answers = item.answers;
      if (answers.optimum === null && answers.result !== "UNSATISFIABLE") {
        notes.push("teaching/" + name + ": not graded: its optimum was not proven at export");
        continue;
      }
      items.push({name: "teaching/" + name, puzzle: item.puzzle, optimum: answers.optimum,
        plan: answers.plan.length ? answers.plan : null});
    }
    const count = Math.max(0, Math.min(MAX_RANDOM, Number(body.random) || 0));
    const trials = randomTrials(count, Number(body.seed) || 0, {graphs: mentionsEdges(encoding.text)});
    const {report, failed} = await gradeAll(encoding, items, trials, {seconds, signal, onGrade: body.onGrade});
    if (failed) {
      if (body.onGrade) body.onGrade(null, report.instances.length, report.instances.length);
      report.counterexample = await firstCounterexample(encoding, failed.puzzle, failed.horizons,
        {seconds, signal});
    }
    report.notes = notes;
    report.backend = "page";
    return report;
  }

  /* -- checking a plan ------------------------------------------------------------------- */

  /* check --json's object (hanoi_asp/teaching/check.py): the plan replayed by the page's
     simulator, and against the optimum where the page knows it (breadth-first search, or
     the one stored at export). */
  function check(puzzle, body) {
    if (body.plan === null || body.plan === undefined) throw new PlanProblem("check needs a plan");
    const steps = readPlan(String(body.plan));
    const out = {version: 1, instance: INSTANCE, plan_file: PLAN_NAME, verdict: null, words: "",
      length: steps.length, legal: true, goal_reached: true, illegal: null, goal_missed: null,
      optimum: null, gap: null, lower_bound: null, shorter: null, proof: null,
      max_moves: puzzle.max_moves === undefined ? null : puzzle.max_moves, time_s: 0, exit_code: 1};
    const start = stateOf(puzzle, puzzle.start), state = start.slice();
    for (let k = 0; k < steps.length; k++) {  // a named source must be where the disk is
      const {disk, target, source} = steps[k];
      if (source !== null && disk >= 1 && disk <= puzzle.disks && puzzle.pegs.includes(target) &&
          puzzle.pegs[state[disk - 1]] !== source) {
        return illegalCheck(site.rules, out, puzzle, state, k + 1, steps[k], "wrong-source",
          "disk " + disk + " is on " + puzzle.pegs[state[disk - 1]] + ", not on " + source);
      }
      const index = puzzle.pegs.indexOf(target);
      const reason = index < 0 ? "unknown peg " + pythonRepr(target) : legalMove(puzzle, state, disk, index);
      if (reason) return illegalCheck(site.rules, out, puzzle, state, k + 1, steps[k], ruleOf(reason), reason);
      state[disk - 1] = puzzle.pegs.indexOf(target);
    }
    const goal = stateOf(puzzle, puzzle.goal);
    const missed = goal.findIndex((peg, k) => peg >= 0 && state[k] !== peg);
    if (missed >= 0) {
      out.verdict = "goal-not-reached";
      out.goal_reached = false;
      out.goal_missed = "disk " + (missed + 1) + " ends on " + puzzle.pegs[state[missed]] +
        ", the goal wants it on " + puzzle.pegs[goal[missed]];
      out.words = "legal, but the goal is not reached: " + out.goal_missed;
      return out;
    }
    const reference = referenceOf(puzzle);
    const moves = (n) => n + (n === 1 ? " move" : " moves");
    if (reference && reference.optimum !== null) {
      out.optimum = out.lower_bound = reference.optimum;
      out.gap = steps.length - reference.optimum;
      out.proof = "the optimum is " + moves(reference.optimum) + " (" + reference.argument + ")";
      out.verdict = out.gap === 0 ? "optimal" : "not-optimal";
      out.words = out.gap === 0 ? "legal, reaches the goal, optimal (" + moves(steps.length) + ")"
        : "legal, reaches the goal, " + moves(out.gap) + " over the optimum (" + moves(reference.optimum) + ")";
      out.exit_code = out.gap === 0 ? 0 : 1;
      return out;
    }
    const bound = lowerBound(puzzle, "auto", null);
    out.lower_bound = bound.value;
    if (bound.value >= steps.length) {
      out.verdict = "optimal";
      out.optimum = steps.length;
      out.gap = 0;
      out.proof = "the plan meets the lower bound " + bound.value + " (" + bound.name + ": " + bound.argument + ")";
      out.words = "legal, reaches the goal, optimal (" + moves(steps.length) + ")";
      out.exit_code = 0;
      return out;
    }
    out.verdict = "unknown";
    out.exit_code = 3;
    out.proof = "the page cannot prove this puzzle's optimum (" + positions(puzzle).toLocaleString("en") +
      " positions, too many for its breadth-first search; hanoi-asp check can)";
    out.words = "legal, reaches the goal; optimal not proven in time (the optimum is " + bound.value +
      "-" + steps.length + " moves)";
    return out;
  }

  /* -- hints ------------------------------------------------------------------------------ */

  function hint(puzzle) {
    const start = stateOf(puzzle, puzzle.start);
    const table = distances(puzzle);
    if (table) {
      const d = table.distance(start);
      return {distance: d < 0 ? null : d, move: d > 0 ? table.next(start) : null, proven: true,
        source: "page-bfs"};
    }
    for (const item of stored) {  // on a stored reference plan?
      if (!item.puzzle || !item.answers.plan.length) continue;
      if (JSON.stringify(canonical(item.puzzle, false)) !== JSON.stringify(canonical(puzzle, false))) continue;
      const states = [stateOf(item.puzzle, item.puzzle.start)];
      const replayed = replay(item.puzzle, item.answers.plan.map((m) => [m.disk, m.to]));
      if (!replayed.ok) continue;
      for (const m of replayed.moves) {
        const next = states[states.length - 1].slice();
        next[m.disk - 1] = item.puzzle.pegs.indexOf(m.to);
        states.push(next);
      }
      const k = states.findIndex((s) => s.every((peg, i) => peg === start[i]));
      if (k >= 0) {
        const m = replayed.moves[k];
        return {distance: replayed.moves.length - k, proven: true, source: "stored",
          move: m ? {disk: m.disk, from: m.from, to: m.to} : null};
      }
    }
    return {error: "the page cannot give one here: this puzzle has " +
      positions(puzzle).toLocaleString("en") + " positions, too many for its breadth-first " +
      "search (up to " + STATE_LIMIT.toLocaleString("en") + "), and this position is not on a " +
      "reference plan stored with the site (hanoi-asp serve can answer)"};
  }

  return {kind: "page", call, site};
}

/* What makes two puzzles the same: pegs, disks, goal, move graph (and the start). */
function canonical(puzzle, withStart) {
  const sortedPlacement = (placement) => puzzle.pegs.map((p) => [p, (placement[p] || []).slice().sort((a, b) => a - b)]);
  const graph = puzzle.graph ? puzzle.graph.map((e) => e.join(">")).sort() : null;
  return [puzzle.pegs, puzzle.disks, sortedPlacement(puzzle.goal), graph,
    withStart ? sortedPlacement(puzzle.start) : null];
}

/* `3..7` or `3` or `3, 5`: horizons as the proofs name them. */
function span(horizons) {
  if (!horizons.length) return "no horizon";
  const first = horizons[0], last = horizons[horizons.length - 1];
  if (horizons.length === last - first + 1) return first === last ? String(first) : first + ".." + last;
  return horizons.join(", ");
}

/* The rule a move breaks, from the simulator's words (domain.js's legalMove). */
function ruleOf(reason) {
  if (/^unknown peg/.test(reason)) return "unknown-peg";
  if (/^there is no disk/.test(reason)) return "no-such-disk";
  if (/already on that peg/.test(reason)) return "same-peg";
  if (/move graph/.test(reason)) return "move-graph";
  if (/not on top/.test(reason)) return "not-on-top";
  return "larger-on-smaller";
}

/* `rules`: each rule's sentence, Python's (site.json's rules: hanoi_asp.model.plan.RULES). */
function illegalCheck(rules, out, puzzle, state, step, given, rule, reason) {
  const held = given.disk >= 1 && given.disk <= puzzle.disks;
  const source = held ? puzzle.pegs[state[given.disk - 1]] : null;
  out.verdict = "illegal";
  out.legal = false;
  out.goal_reached = null;
  out.illegal = {step, line: given.line, disk: given.disk, from: source, to: given.target, rule,
    rule_text: rules[rule], reason, board: asciiBoard(puzzle, state)};
  out.words = "illegal at step " + step + (given.line === null ? "" : " (line " + given.line + ")") +
    ": disk " + given.disk + " " + (source === null ? "to " + given.target
      : "from " + source + " to " + given.target) + ": " + reason;
  return out;
}

function refuse(name, where, line, message, illegal) {
  const text = name + (line ? ":" + line : "") + ": " + message;
  const data = {error: text, where, line: line || null};
  if (illegal) data.illegal = illegal;
  return {ok: false, status: 400, data};
}
