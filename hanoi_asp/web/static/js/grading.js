/*
 * Grading in the page, as `hanoi-asp grade` grades (hanoi_asp/teaching/grade.py), with
 * its verdicts and its JSON: for every horizon from 0 up to the reference optimum the
 * student's encoding is asked "is there a plan of exactly h moves?"; the reference
 * says no below the optimum and yes at it.  Every plan the encoding gives is replayed
 * by domain.js's simulator, so an illegal move or a missed goal is caught and drawn.
 * An encoding with no plan at the optimum is asked the horizons above, to see whether
 * it finds only longer plans.  Random puzzles (random-puzzles.js) are asked only the
 * horizons around their optimum, after the given instances, until one fails.
 *
 * The first failure is handed back for shrink.js to make a counterexample of.
 */

import {derivesMove, refusedDirective} from "./asp.js";
import {asciiBoard, replay, stateOf} from "./domain.js";
import {askHorizons} from "./horizons.js";

export const EXTRA_HORIZONS = 20;
export const UNREACHABLE_HORIZONS = 12;

export class EncodingProblem extends Error {
  constructor(message, line) {
    super(message);
    this.line = line === undefined ? null : line;
  }
}

/* Refuse what the command line refuses before any grading: #script and #include, and
   an encoding that derives no move/3 (it cannot solve a puzzle on its own). */
export function checkWhole(encoding) {
  const refused = refusedDirective(encoding.text);
  if (refused) throw new EncodingProblem(refused.message, refused.line);
  if (!derivesMove(encoding.text)) {
    throw new EncodingProblem("not a whole encoding: no rule derives move/3 (the plan), so it " +
      "cannot solve a puzzle on its own (add-ons such as distance3.lp and mirror.lp are " +
      "loaded beside incremental.lp and cannot be graded alone)");
  }
}

function finding(kind, message, horizon = null, board = null) {
  return {kind, message, horizon, board};
}

/* One horizon's answer, its plan replayed, problems noted (grade.py's _ask). */
function noted(run, puzzle, findings, seconds) {
  const h = run.horizon;
  if (run.malformed) {
    findings.push(finding("illegal-plan", "at " + h + " moves: " + run.malformed, h,
      run.malformedAt ? malformedBoard(puzzle, run.malformedAt) : null));
    return "SAT";
  }
  if (run.status === "UNKNOWN") {
    findings.push(finding("unknown", "no answer at " + h + " moves within " + seconds + " s", h));
  }
  if (!run.steps) return run.status;
  const replayed = replay(puzzle, run.steps);
  if (!replayed.ok && replayed.kind === "illegal-plan" && !puzzle.pegs.includes(replayed.target)) {
    findings.push(finding("illegal-plan", "at " + h + " moves: " + replayed.message, h));  // no such peg
  } else if (!replayed.ok && replayed.kind === "illegal-plan") {
    findings.push(finding("illegal-plan", "at " + h + " moves: " + replayed.message, h,
      asciiBoard(puzzle, replayed.state) + "\n(before step " + replayed.step + ": disk " +
      replayed.disk + " -> " + replayed.target + ")"));
  } else if (!replayed.ok) {
    findings.push(finding("goal-not-reached", "at " + h + " moves: " + replayed.message, h,
      asciiBoard(puzzle, replayed.state)));
  }
  return "SAT";
}

/* The board an answer shows before its first step with two moves or none (its moves
   before it made as shown, one a step), and that step's moves (grade.py's _shown_state). */
function malformedBoard(puzzle, {step, moves}) {
  const state = stateOf(puzzle, puzzle.start);
  for (let t = 1; t < step; t++) {
    const [first] = moves.get(t) || [];
    if (!first) continue;
    const [disk, peg] = first, index = puzzle.pegs.indexOf(peg);
    if (disk >= 1 && disk <= puzzle.disks && index >= 0) state[disk - 1] = index;
  }
  const moved = (moves.get(step) || []).map(([disk, peg]) => "disk " + disk + " -> " + peg);
  return asciiBoard(puzzle, state) + "\n(before step " + step + ": " +
    (moved.join(" and ") || "no move") + ")";
}

function firstOfEach(findings) {
  const seen = new Set();
  return findings.filter((f) => !seen.has(f.kind) && seen.add(f.kind));
}

function tooStrict(optimum) {
  return finding("too-strict", "UNSATISFIABLE at " + optimum + " moves, but the reference has a " +
    "plan of " + optimum + " moves: the encoding rules out legal plans", optimum);
}

/* An encoding clingo refused, as grade reports it: an "error" finding. */
function refusal(result, encoding) {
  const where = encoding.name + (result.error.line ? ":" + result.error.line : "");
  return finding("error", where + ": " + result.error.message);
}

/*
 * The grade on one instance whose reference answer is known: {grade, warnings}, grade
 * as grade --json has it.  reference: {optimum (null: no plan), max_moves}.
 */
export async function gradeInstance(encoding, name, puzzle, reference, {seconds, signal}) {
  const optimum = reference.optimum;
  const top = optimum !== null ? optimum
    : puzzle.max_moves === null || puzzle.max_moves === undefined ? UNREACHABLE_HORIZONS : puzzle.max_moves;
  const horizons = Array.from({length: top + 1}, (_, h) => h);
  const findings = [], answers = {};
  const asked = await askHorizons(puzzle, encoding, horizons, {seconds, signal});
  stopped(asked);
  if (asked.error) findings.push(refusal(asked, encoding));
  for (const run of asked.runs) answers[run.horizon] = noted(run, puzzle, findings, seconds);
  for (const h of horizons) {
    if (!(h in answers) && !asked.error) {
      answers[h] = "UNKNOWN";
      findings.push(finding("unknown", "no answer at " + h + " moves within " + seconds + " s", h));
      break;  // the time ran out here: the horizons after it were never asked
    }
  }
  if (!asked.error && optimum !== null && answers[optimum] === "UNSAT") {
    findings.push(tooStrict(optimum));
    const higher = Array.from({length: EXTRA_HORIZONS}, (_, k) => optimum + 1 + k);
    const more = await askHorizons(puzzle, encoding, higher, {first: true, seconds, signal});
    stopped(more);
    for (const run of more.runs) {
      const before = findings.length;
      answers[run.horizon] = noted(run, puzzle, findings, seconds);
      if (answers[run.horizon] === "SAT") {
        if (findings.length === before) {
          findings.push(finding("longer-than-optimal", "the encoding's shortest plan has " +
            run.horizon + " moves; the optimum is " + optimum, run.horizon));
        }
        break;
      }
    }
  }
  const wrong = horizons.filter((h) => {
    const expected = h === optimum ? "SAT" : "UNSAT";
    const given = answers[h] || "UNKNOWN";
    return given !== "UNKNOWN" && given !== expected;
  });
  if (wrong.length) {
    const shown = wrong.slice(0, 3).map((h) => h + " (" + answers[h] + ", expected " +
      (h === optimum ? "SAT" : "UNSAT") + ")").join(", ");
    const more = wrong.length > 3 ? " and " + (wrong.length - 3) + " more" : "";
    findings.push(finding("horizons-differ", "horizons answered differently: " + shown + more));
  }
  return {grade: gradeObject(name, optimum, answers, firstOfEach(findings)), warnings: asked.warnings};
}

/* The grade on a random puzzle, at its horizons only (grade.py's grade_trial). */
export async function gradeTrial(encoding, trial, {seconds, signal}) {
  const {puzzle, optimum} = trial;
  const findings = [], answers = {};
  const asked = await askHorizons(puzzle, encoding, trial.horizons, {seconds, signal});
  stopped(asked);
  if (asked.error) findings.push(refusal(asked, encoding));
  for (const run of asked.runs) answers[run.horizon] = noted(run, puzzle, findings, seconds);
  if (optimum !== null && answers[optimum] === "UNSAT") findings.push(tooStrict(optimum));
  const wrong = Object.keys(answers).map(Number).sort((a, b) => a - b)
    .filter((h) => answers[h] === "SAT" && (optimum === null || h < optimum));
  if (wrong.length) {
    findings.push(finding("horizons-differ", "horizons answered differently: " + wrong[0] +
      " (SAT, expected UNSAT)", wrong[0]));
  }
  return {grade: gradeObject(trial.name, optimum, answers, firstOfEach(findings)), warnings: asked.warnings};
}

function stopped(asked) {
  if (asked.stopped === "stop") throw new DOMException("stopped", "AbortError");
}

function gradeObject(instance, optimum, answers, findings) {
  const sorted = {};
  for (const h of Object.keys(answers).map(Number).sort((a, b) => a - b)) sorted[String(h)] = answers[h];
  return {instance, passed: findings.length === 0, optimum, answers: sorted, findings};
}

/*
 * Grade `encoding` on `items` ([{name, puzzle, optimum, plan}]: the reference answers),
 * then on `trials` until one fails: {report: grade --json's object (no counterexample
 * yet), failed: the first failure's {puzzle, horizons} or null}.  onGrade(grade, done,
 * total) after each.
 */
export async function gradeAll(encoding, items, trials, {seconds, signal, onGrade}) {
  checkWhole(encoding);
  const report = {encoding: encoding.name, passed: true, score: {passed: 0, total: 0},
    instances: [], warnings: [], counterexample: null, random_skipped: 0};
  let first = null;
  const total = items.length + trials.length;
  const add = (done, item) => {
    report.instances.push(done.grade);
    for (const w of done.warnings) if (!report.warnings.includes(w)) report.warnings.push(w);
    if (!done.grade.passed && first === null) first = {item, done};
    if (onGrade) onGrade(done.grade, report.instances.length, total);
  };
  for (const item of items) {
    add(await gradeInstance(encoding, item.name, item.puzzle, item, {seconds, signal}), item);
  }
  for (let index = 0; index < trials.length; index++) {
    if (first !== null) { report.random_skipped = trials.length - index; break; }
    add(await gradeTrial(encoding, trials[index], {seconds, signal}), trials[index]);
  }
  report.score.passed = report.instances.filter((g) => g.passed).length;
  report.score.total = report.instances.length;
  report.passed = report.score.passed === report.score.total;
  const failed = first === null ? null : {puzzle: first.item.puzzle,
    horizons: Object.keys(first.done.grade.answers).map(Number).sort((a, b) => a - b)};
  return {report, failed};
}

