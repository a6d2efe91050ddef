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
 * The first failure becomes the counterexample, with the plan in question (the
 * student's illegal one, or the reference plan the encoding rejects) and, for a
 * one-shot encoding that rejects the reference plan, the rules that reject it: its
 * integrity constraints are relaxed (asp.js relaxConstraints) and clingo, with the
 * plan fixed, minimises the moves it cannot make, then the constraints broken
 * (hanoi_asp/teaching/why_rejected.py).  The page does not shrink the counterexample
 * as the command line does; the random puzzles grow from 1 disk, so the first to fail
 * is among the smallest that show the bug.
 */

import {BROKEN, derivesMove, isIncremental, refusedDirective, relaxConstraints} from "./asp.js";
import {clingo} from "./clingo.js";
import {asciiBoard, factsText, pegTerm, replay} from "./domain.js";
import {parseSymbol, showSymbol} from "./facts.js";
import {askHorizons} from "./horizons.js";

export const EXTRA_HORIZONS = 20;
export const UNREACHABLE_HORIZONS = 12;
const SHOWN_TEXT = 72;

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
function noted(run, puzzle, findings, seconds, plans) {
  const h = run.horizon;
  if (run.malformed) {
    findings.push(finding("illegal-plan", "at " + h + " moves: " + run.malformed, h));
    return "SAT";
  }
  if (run.status === "UNKNOWN") {
    findings.push(finding("unknown", "no answer at " + h + " moves within " + seconds + " s", h));
  }
  if (!run.steps) return run.status;
  const replayed = replay(puzzle, run.steps);
  plans[h] = {steps: run.steps, replayed};
  if (!replayed.ok && replayed.kind === "illegal-plan") {
    findings.push(finding("illegal-plan", "at " + h + " moves: " + replayed.message, h,
      asciiBoard(puzzle, replayed.state) + "\n(before step " + replayed.step + ": disk " +
      replayed.disk + " -> " + replayed.target + ")"));
  } else if (!replayed.ok) {
    findings.push(finding("goal-not-reached", "at " + h + " moves: " + replayed.message, h,
      asciiBoard(puzzle, replayed.state)));
  }
  return "SAT";
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
 * The grade on one instance whose reference answer is known: {grade, warnings, plans}
 * (grade the JSON object of grade --json; plans: per horizon the steps the encoding
 * gave and their replay).  reference: {optimum (null: no plan), max_moves}.
 */
export async function gradeInstance(encoding, name, puzzle, reference, {seconds, signal}) {
  const optimum = reference.optimum;
  const top = optimum !== null ? optimum
    : puzzle.max_moves === null || puzzle.max_moves === undefined ? UNREACHABLE_HORIZONS : puzzle.max_moves;
  const horizons = Array.from({length: top + 1}, (_, h) => h);
  const findings = [], answers = {}, plans = {};
  const asked = await askHorizons(puzzle, encoding, horizons, {seconds, signal});
  stopped(asked);
  if (asked.error) findings.push(refusal(asked, encoding));
  for (const run of asked.runs) answers[run.horizon] = noted(run, puzzle, findings, seconds, plans);
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
      answers[run.horizon] = noted(run, puzzle, findings, seconds, plans);
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
  return {grade: gradeObject(name, optimum, answers, firstOfEach(findings)), warnings: asked.warnings, plans};
}

/* The grade on a random puzzle, at its horizons only (grade.py's grade_trial). */
export async function gradeTrial(encoding, trial, {seconds, signal}) {
  const {puzzle, optimum} = trial;
  const findings = [], answers = {}, plans = {};
  const asked = await askHorizons(puzzle, encoding, trial.horizons, {seconds, signal});
  stopped(asked);
  if (asked.error) findings.push(refusal(asked, encoding));
  for (const run of asked.runs) answers[run.horizon] = noted(run, puzzle, findings, seconds, plans);
  if (optimum !== null && answers[optimum] === "UNSAT") findings.push(tooStrict(optimum));
  const wrong = Object.keys(answers).map(Number).sort((a, b) => a - b)
    .filter((h) => answers[h] === "SAT" && (optimum === null || h < optimum));
  if (wrong.length) {
    findings.push(finding("horizons-differ", "horizons answered differently: " + wrong[0] +
      " (SAT, expected UNSAT)", wrong[0]));
  }
  return {grade: gradeObject(trial.name, optimum, answers, firstOfEach(findings)), warnings: asked.warnings, plans};
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
 * then on `trials` until one fails; the report is grade --json's object, its
 * counterexample built from the first failure.  onGrade(grade, done, total) after each.
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
  if (first !== null) report.counterexample = await counterexample(encoding, first, {seconds, signal});
  return report;
}

/* -- the counterexample ---------------------------------------------------------------- */

async function counterexample(encoding, {item, done}, {seconds, signal}) {
  const {puzzle} = item, grade = done.grade;
  const shown = grade.findings.find((f) => f.kind !== "unknown") || grade.findings[0];
  const horizon = shown.horizon !== null ? shown.horizon : grade.optimum !== null ? grade.optimum : 0;
  const base = {instance: factsText({...puzzle, max_moves: horizon}), pegs: puzzle.pegs.length,
    disks: puzzle.disks, horizon, kind: shown.kind, plan: [], reason: shown.message, rules: [],
    name: grade.instance};
  const given = done.plans[horizon];
  if (given && (shown.kind === "illegal-plan" || shown.kind === "goal-not-reached")) {
    const bad = given.replayed;
    const steps = given.steps.map(([disk, to], k) => ({step: k + 1, disk, to}));
    // from/to as solve --json has them, as far as the simulator got
    steps.forEach((s, k) => { s.from = k < bad.moves.length ? bad.moves[k].from : null; });
    return {...base, plan: steps.map(({step, disk, from, to}) => ({step, disk, from, to})),
      reason: bad.message, board: shown.board};
  }
  if (!item.plan || grade.optimum === null) return base;
  const plan = item.plan.map(({step, disk, from, to}) => ({step, disk, from, to}));
  const rejected = shown.kind === "too-strict" || shown.kind === "longer-than-optimal"
    ? await whyRejected(encoding, puzzle, plan, {seconds, signal}) : null;
  return {...base, horizon: grade.optimum, instance: factsText({...puzzle, max_moves: grade.optimum}),
    plan, reason: rejected ? rejected.reason : shown.message, rules: rejected ? rejected.rules : []};
}

function short(rule) {
  const text = rule.text.length <= SHOWN_TEXT ? rule.text : rule.text.slice(0, SHOWN_TEXT - 3) + "...";
  return rule.file + ":" + rule.line + ": '" + text + "'";
}

/* Which of a one-shot encoding's rules reject the reference `plan`: {reason, rules} or
   null (an incremental encoding is not analysed, as on the command line). */
export async function whyRejected(encoding, puzzle, plan, {seconds = 10, signal} = {}) {
  if (isIncremental(encoding.text)) return null;
  const relaxed = relaxConstraints(encoding.text);
  const wanted = plan.map((m) => "__why_plan(" + m.disk + "," + pegTerm(m.to) + "," + m.step + ").").join(" ");
  const program = relaxed.text + "\n#program base.\n" + factsText(puzzle, {moves: false}) +
    "moves(" + plan.length + ").\n" + wanted + "\n" +
    "__why_missing(T) :- __why_plan(D,P,T), not move(D,P,T).\n" +
    "__why_missing(T) :- move(D,P,T), not __why_plan(D,P,T), T = 1.." + plan.length + ".\n" +
    ":~ __why_missing(T). [1@30,T]\n" +
    ":~ " + BROKEN + "(I,V). [1@20,I,V]\n" +
    "#show __why_missing/1. #show " + BROKEN + "/2.\n";
  const answer = await clingo.run(program, "--outf=2 --opt-mode=opt 0", {seconds, signal});
  if (answer.stopped === "stop") throw new DOMException("stopped", "AbortError");
  if (!answer.result || !answer.result.Call) return null;
  const witnesses = answer.result.Call.flatMap((c) => c.Witnesses || []);
  if (!witnesses.length) return null;
  const atoms = witnesses[witnesses.length - 1].Value.map(parseSymbol).filter(Boolean);
  const rule = (r) => ({file: encoding.name, line: r.line, text: r.text});
  const missing = atoms.filter((a) => a.name === "__why_missing").map((a) => a.args[0].value).sort((a, b) => a - b);
  if (missing.length) {
    if (!relaxed.moveRules.length) return null;
    const step = missing[0], move = plan[step - 1];
    return {reason: short(rule(relaxed.moveRules[0])) + " cannot make the reference plan's move at step " +
      step + ": move(" + move.disk + "," + pegTerm(move.to) + "," + step + "), disk " + move.disk +
      " onto " + move.to + " (no answer has it, even with every integrity constraint relaxed)",
    rules: relaxed.moveRules.map(rule)};
  }
  const fired = new Map();
  for (const atom of atoms) {
    if (atom.name !== BROKEN || atom.args.length !== 2) continue;
    const index = atom.args[0].value;
    if (!fired.has(index)) fired.set(index, []);
    fired.get(index).push(atom.args[1].args);
  }
  if (!fired.size) return null;
  const stepOf = (variables, values) => {
    const k = variables.indexOf("T");
    return k >= 0 && values[k] && values[k].type === "num" ? values[k].value : Infinity;
  };
  const ranked = [...fired.keys()].sort((a, b) => {
    const va = relaxed.constraints[a].variables, vb = relaxed.constraints[b].variables;
    const sa = Math.min(...fired.get(a).map((v) => stepOf(va, v)));
    const sb = Math.min(...fired.get(b).map((v) => stepOf(vb, v)));
    return sa - sb || a - b;
  });
  const parts = ranked.map((index) => {
    const constraint = relaxed.constraints[index];
    const bindings = fired.get(index).slice().sort((a, b) =>
      stepOf(constraint.variables, a) - stepOf(constraint.variables, b));
    const more = bindings.length > 1 ? " (and " + (bindings.length - 1) + " more)" : "";
    return short(rule(constraint)) + " fails " + where(constraint.variables, bindings[0]) + more;
  });
  return {reason: parts.join("; "), rules: ranked.map((i) => rule(relaxed.constraints[i]))};
}

/* `at step 41 for disk 3` when the rule calls them T and D, else the bindings. */
function where(variables, values) {
  const bound = new Map(variables.map((name, k) => [name, values[k] ? showSymbol(values[k]) : "?"]));
  if (bound.has("T") || bound.has("D")) {
    const parts = [];
    if (bound.has("T")) { parts.push("at step " + bound.get("T")); bound.delete("T"); }
    if (bound.has("D")) { parts.push("for disk " + bound.get("D")); bound.delete("D"); }
    const rest = [...bound].map(([k, v]) => k + "=" + v).join(", ");
    return parts.join(" ") + (rest ? " (" + rest + ")" : "");
  }
  if (bound.size) return "with " + [...bound].map(([k, v]) => k + "=" + v).join(", ");
  return "(it has no variables: it fails outright)";
}
