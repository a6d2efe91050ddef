/*
 * The page's answer to every corpus case, from its own ES modules (served from the
 * package's static folder at the page's origin), in the corpus's terms: the same
 * objects tests/corpus/python_side.py makes from Python.  One call answers all cases
 * of all kinds; a case that throws answers {crash: message}.
 *
 *   const answers = await answerAll({facts: [...], plans: [...], bounds: [...], grades: [...]})
 *   answers: {facts: [...], plans: [...], bounds: [...], grades: [...], seconds: {kind: s},
 *             slowest: the five slowest cases [[s, "kind:name"], ...]}
 */

import {bfsReference, lowerBound, pageBackend, withinMoves} from "/js/backend-page.js";
import {readInstance} from "/js/facts.js";
import {EncodingProblem, gradeAll} from "/js/grading.js";
import {extractSteps} from "/js/horizons.js";
import {replay} from "/js/domain.js";
import {asMoves, firstCounterexample, illegal} from "/js/shrink.js";

const INSTANCE = "instance.lp", ENCODING = "encoding.lp", GRADE_SECONDS = 30;
const RULE = "; the rule broken: ";
const PLACE = /^instance\.lp(?::\d+)?: /;
const NO_SITE = {title: "corpus", encodings: [], exercises: [], instances: [], teaching: [],
  rules: {}};
const backend = pageBackend(NO_SITE);

/* The page's parse call (as the playground asks it): the puzzle, or the refusal's
   message (without its instance.lp:LINE: place) and line. */
async function facts(item) {
  const answer = await backend.call("parse", {instance: item.text, format: "lp"});
  if (answer.ok) return {puzzle: answer.data};
  return {error: {message: answer.data.error.replace(PLACE, ""), line: answer.data.line}};
}

function plans(item) {
  const puzzle = readInstance(item.instance);
  let steps = item.steps;
  if (item.atoms) {
    try {
      steps = extractSteps(item.atoms, item.horizon);
    } catch (error) {
      return {malformed: error.message};
    }
  }
  const replayed = replay(puzzle, steps);
  const legal = replayed.ok || replayed.kind === "goal-not-reached";
  const goal = replayed.ok ? true : replayed.kind === "goal-not-reached" ? false : null;
  const {reason, board} = illegal(puzzle, steps);
  const step = /^step (\d+):/.exec(reason);
  return {legal, goal, step: step && !legal ? Number(step[1]) : null,
    rule: reason.includes(RULE) ? reason.slice(reason.indexOf(RULE) + RULE.length) : null,
    reason, board, moves: replayed.ok ? replayed.moves : null, plan: asMoves(puzzle, steps)};
}

function bounds(item) {
  const puzzle = readInstance(item.instance);
  const reference = bfsReference(puzzle);
  const answer = {bfs: reference && {optimum: reference.optimum}};
  for (const choice of ["auto", "misplaced", "none"]) answer[choice] = lowerBound(puzzle, choice, reference);
  return answer;
}

/* The page's grade of one instance (gradeAll, as its back end calls it: the instance's
   breadth-first reference within its moves/1, no random puzzles), and the counterexample. */
async function grades(item) {
  const encoding = {name: ENCODING, text: item.encoding};
  const puzzle = readInstance(item.instance);
  const items = [{name: INSTANCE, puzzle, ...withinMoves(bfsReference(puzzle), puzzle)}];
  let graded;
  try {
    graded = await gradeAll(encoding, items, [], {seconds: GRADE_SECONDS});
  } catch (error) {
    if (!(error instanceof EncodingProblem)) throw error;
    return {refused: {message: error.message, line: error.line}};
  }
  const answer = {grade: graded.report.instances[0], warnings: graded.report.warnings};
  if (item.counterexample) {
    const {failed} = graded;
    const shown = failed && await firstCounterexample(encoding, failed.puzzle, failed.horizons,
      {seconds: GRADE_SECONDS});
    answer.counterexample = shown ? await counterexample(shown) : null;
  }
  return answer;
}

const COUNTEREXAMPLE_KEYS = ["pegs", "disks", "horizon", "kind", "plan", "reason", "rules"];

async function counterexample(shown) {
  const out = {instance: await facts({text: shown.instance})};
  for (const key of COUNTEREXAMPLE_KEYS) out[key] = shown[key];
  return out;
}

const KINDS = {facts, plans, bounds, grades};

export async function answerAll(corpus) {
  const out = {seconds: {}, slowest: []};
  for (const [kind, answer] of Object.entries(KINDS)) {
    const began = performance.now();
    out[kind] = [];
    for (const item of corpus[kind] || []) {
      const start = performance.now();
      try {
        out[kind].push(await answer(item));
      } catch (error) {
        out[kind].push({crash: String(error && error.stack || error)});
      }
      out.slowest.push([(performance.now() - start) / 1000, kind + ":" + item.name]);
    }
    out.seconds[kind] = (performance.now() - began) / 1000;
  }
  out.slowest = out.slowest.sort((a, b) => b[0] - a[0]).slice(0, 5);
  return out;
}
