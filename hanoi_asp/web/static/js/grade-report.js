/*
 * Grading's report (grade --json's object, from either back end): the score, each
 * instance with its answers by horizon and its findings, clingo's warnings, and the
 * counterexample: the puzzle, the plan in question, the reason and the rules that
 * reject the plan, with a button that opens it on the boards and steps its plan.
 */

import {$, el, plural} from "./dom.js";

const PASSING_SHOWN = 3;

export function showGrade(report, {onCounterexample} = {}) {
  const verdict = $("verdict");
  el("span", {class: "badge " + (report.passed ? "good" : "bad"), "data-testid": "verdict-result"},
    verdict, report.passed ? "PASSED" : "FAILED");
  el("span", {class: "length", "data-testid": "grade-score"}, verdict, report.score.passed + " / " +
    plural(report.score.total, "instance") + " pass");
  const randoms = (report.instances || []).filter((g) => g.instance.startsWith("random/"));
  $("proof").textContent = "Your encoding was run at every horizon up to the optimum and compared " +
    "with the reference" + (randoms.length ? ", then on " + plural(randoms.length, "random puzzle") +
    " at the horizons around their optimum (breadth-first search's)" : "") +
    (report.random_skipped ? "; " + report.random_skipped + " more random puzzles not run after the " +
      "first failure" : "") + ".";
  const box = $("grade-report");
  box.hidden = false;
  if (report.counterexample) showCounterexample(box, report.counterexample, onCounterexample);
  for (const note of report.notes || []) el("p", {class: "note"}, box, note);
  const passing = randoms.filter((g) => g.passed);
  for (const grade of report.instances || []) {
    if (grade.passed && grade.instance.startsWith("random/") && passing.indexOf(grade) >= PASSING_SHOWN) {
      continue;
    }
    showItem(box, grade);
  }
  if (passing.length > PASSING_SHOWN) {
    el("p", {class: "note", "data-testid": "random-passed"}, box, "… and " +
      (passing.length - PASSING_SHOWN) + " more random puzzles passed (" + plural(passing.length, "random puzzle") +
      " passed in all).");
  }
  if (report.warnings && report.warnings.length) {
    el("h3", {}, box, "clingo's warnings about the encoding");
    const warn = el("ul", {class: "warnings"}, box);
    for (const w of report.warnings) el("li", {}, warn, w);
  }
}

function showItem(box, grade) {
  const item = el("section", {class: "grade-item " + (grade.passed ? "passed" : "failed"),
    "data-testid": "grade-item", "data-instance": grade.instance}, box);
  el("h3", {}, item, (grade.passed ? "✓ pass " : "✗ fail ") + grade.instance + (grade.optimum !== null
    ? " — optimum " + plural(grade.optimum, "move") : " — no plan within the checked range"));
  const answers = el("p", {class: "answers"}, item, "your answers by horizon (red: not the reference's): ");
  for (const h of Object.keys(grade.answers || {})) {
    const status = grade.answers[h];
    const expected = grade.optimum !== null && Number(h) >= grade.optimum ? "SAT" : "UNSAT";
    const right = status === expected || (Number(h) > grade.optimum && grade.optimum !== null);
    el("span", {class: "chip " + (right ? "right" : "wrong"),
      title: "horizon " + h + ": " + status + (right ? "" : ", the reference: " + expected)}, answers, h + " " + status);
  }
  const list = el("ul", {class: "findings"}, item);
  for (const finding of grade.findings || []) {
    const li = el("li", {"data-testid": "finding"}, list);
    el("span", {class: "kind"}, li, finding.kind);
    li.appendChild(document.createTextNode(" " + finding.message));
    if (finding.board) el("pre", {class: "ascii-board"}, li, finding.board);
  }
}

/* "pegs a, b and d": the counterexample's pegs by name, from its instance's peg/1 facts
   (a shrunk puzzle keeps the names of the pegs it kept); else their count. */
function pegNames(example) {
  const names = [];
  for (const found of example.instance.matchAll(/\bpeg\(([^()]*)\)/g)) {
    names.push(...found[1].split(";").map((name) => name.trim().replace(/^"(.*)"$/, "$1")));
  }
  if (names.length !== example.pegs) return plural(example.pegs, "peg");
  const listed = names.length > 1
    ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0];
  return (names.length === 1 ? "peg " : "pegs ") + listed;
}

function showCounterexample(box, example, onOpen) {
  const card = el("section", {class: "counterexample", "data-testid": "counterexample"}, box);
  el("h3", {}, card, "Counterexample: " + example.kind + " on " + plural(example.disks, "disk") + ", " +
    pegNames(example) + ", " + plural(example.horizon, "move"));
  el("p", {"data-testid": "counterexample-reason"}, card, example.reason);
  if (example.rules && example.rules.length) {
    const list = el("ul", {class: "rules"}, card);
    for (const rule of example.rules) {
      const li = el("li", {}, list);
      el("span", {class: "rule-where"}, li, rule.file + ":" + rule.line + " ");
      el("code", {}, li, rule.text);
    }
  }
  const text = el("details", {}, card);
  el("summary", {}, text, "the instance (run it by hand: python -m clingo it.lp your-encoding.lp)");
  el("pre", {class: "ascii-board"}, text, example.instance);
  if (onOpen) {
    const what = example.kind === "illegal-plan" || example.kind === "goal-not-reached"
      ? "your encoding's plan" : "the reference plan your encoding rejects";
    const open = el("button", {type: "button", class: "primary", "data-testid": "open-counterexample"},
      card, "Open it on the board, with " + what);
    open.addEventListener("click", () => onOpen(example));
  }
}
