/*
 * The Solve tab's result: the verdict, the proof or the gap, what clingo really did,
 * the horizons (table and chart), "why not shorter", the encoding rule by rule, the
 * plan animated by HanoiPlayer (player.js), and a plan the simulator refused drawn at
 * its first illegal step.  Grading's report is drawn by grade-report.js.
 */

import {$, el, plural, svgEl} from "./dom.js";
import {drawBoard} from "./board.js";
import {placementOf, replay, stateOf} from "./domain.js";
import {showGrade} from "./grade-report.js";
import {readPlan} from "./plan-text.js";

let player = null;
let lastHorizons = [];

const VERDICT_CLASS = {
  "OPTIMUM FOUND": "good", "SATISFIABLE": "fair", "UNSATISFIABLE": "bad", "UNKNOWN": "none"
};

export function clearResult() {
  if (player) { player.destroy(); player = null; }
  homePlaces();
  for (const id of ["verdict", "proof", "bounds", "why", "grade-report", "plan-player",
    "horizon-chart", "horizon-table", "sections-body", "illegal"]) $(id).textContent = "";
  for (const id of ["why", "grade-report", "horizons", "sections", "illegal"]) $(id).hidden = true;
  $("plan-player").classList.remove("hanoi-player");
}

/* A result shown while another run is under way, or after it failed, is the previous
   run's: dimmed and said so. */
export function markOld(old) {
  const box = $("result");
  box.classList.toggle("is-old", old && !box.hidden);
  $("result-heading").textContent = old && !box.hidden ? "Result (of the previous run)" : "Result";
}

export function showResult(kind, data, puzzle, hooks = {}) {
  clearResult();
  $("result").hidden = false;
  markOld(false);
  if (kind === "check") {
    showCheck(data, puzzle);
  } else if (kind === "grade") {
    showGrade(data, {onCounterexample: async (example) => {
      const opened = hooks.onCounterexample ? await hooks.onCounterexample(example) : null;
      if (opened) playCounterexample(example, opened);
    }});
  } else {
    const result = kind === "explain" ? data.result : data;
    showSolve(result, puzzle, kind);
    if (kind === "explain") showExplain(data);
  }
  $("result").scrollIntoView({block: "nearest"});
}

/* The plan in the player; `upto` moves only (a plan refused after them). */
function mountPlayer(puzzle, plan) {
  if (player) { player.destroy(); player = null; }
  player = window.HanoiPlayer.mount($("plan-player"), {
    pegs: puzzle.pegs, disks: puzzle.disks, start: puzzle.start, goal: puzzle.goal,
    plan: plan.map((m) => ({disk: m.disk, from: m.from, to: m.to}))
  }, {speed: 2, ends: false});
  return player;
}

const CHECK_BADGES = {
  "optimal": ["OPTIMAL", "good"], "not-optimal": ["NOT OPTIMAL", "fair"], "unknown": ["LEGAL", "fair"],
  "illegal": ["ILLEGAL PLAN", "bad"], "goal-not-reached": ["GOAL NOT REACHED", "bad"]
};

/* check --json's object: the verdict in words, the proof, the board where the plan goes
   wrong (its refused move marked), and a valid plan (or the moves before the refused
   one) in the player. */
function showCheck(data, puzzle) {
  const verdict = $("verdict");
  const [word, tone] = CHECK_BADGES[data.verdict] || [data.verdict, "none"];
  el("span", {class: "badge " + tone, "data-testid": "verdict-result"}, verdict, word);
  el("span", {class: "length", "data-testid": "verdict-length"}, verdict, plural(data.length, "move"));
  const proof = data.proof ? data.proof[0].toUpperCase() + data.proof.slice(1) : "";
  $("proof").textContent = data.words + (proof ? ". " + proof : "");
  const dl = $("bounds");
  for (const [term, value] of [["optimum", data.optimum], ["over the optimum", data.gap],
    ["lower bound", data.optimum === null ? data.lower_bound : null],
    ["a shorter plan found", data.shorter], ["rule broken", data.illegal && data.illegal.rule_text]]) {
    if (value === null || value === undefined) continue;
    el("dt", {}, dl, term);
    el("dd", {"data-testid": "check-" + term.replace(/ /g, "-")}, dl, String(value));
  }
  let steps = [];
  try {
    steps = readPlan($("plan-text").value).map((s) => [s.disk, s.target]);
  } catch (ignored) { /* the verdict stands; nothing to play */ }
  const upto = data.illegal ? data.illegal.step - 1 : steps.length;
  const replayed = replay(puzzle, steps.slice(0, upto));
  const moves = replayed.ok || replayed.kind === "goal-not-reached" ? replayed.moves : [];
  if (data.illegal) {
    const state = stateOf(puzzle, puzzle.start);
    for (const m of moves) state[m.disk - 1] = puzzle.pegs.indexOf(m.to);
    drawRefused(puzzle, {state, step: data.illegal.step, disk: data.illegal.disk,
      target: data.illegal.to});
  } else if (!replayed.ok) {
    drawRefused(puzzle, replayed);
  }
  if (moves.length) {
    mountPlayer(puzzle, moves);
    if (data.verdict !== "optimal" && data.verdict !== "not-optimal" && data.verdict !== "unknown") {
      player.goto(moves.length);
    }
  }
}

/* What clingo really did, in a line: the horizons it searched and what it found, or
   why it searched none. */
export function clingoRan(result) {
  const horizons = result.horizons || [];
  const what = (result.programs || []).join(" + ") +
    (result.mode ? " (" + (result.mode === "oneshot" ? "one-shot" : result.mode) +
      (result.threads ? ", " + plural(result.threads, "thread") : "") + ")" : "");
  if (!horizons.length) {
    if (result.stopped) return "no horizon finished before the search stopped (" + result.stopped + ")";
    if (result.unreachable || result.result === "UNSATISFIABLE") {
      return "no horizon: " + (result.proof || "no plan exists");
    }
    if (result.backend === "page" && result.programs[0] === "the answer stored at export") {
      return "no horizon: the answer hanoi-asp stored when the site was exported";
    }
    if (result.first_plan && result.proven_minimal && result.length === result.lower_bound) {
      const bound = result.bound ? " (" + result.bound.name + ")" : "";
      return "no horizon: the plan built first (" + result.first_plan.method + ", " +
        plural(result.first_plan.length, "move") + ") met the lower bound " + result.lower_bound +
        bound + ", so clingo had nothing to refute; choose \"start at 0\" and Explain to watch it search";
    }
    return "no horizon";
  }
  const refuted = horizons.filter((h) => h.status === "UNSAT").length;
  const sat = horizons.find((h) => h.status === "SAT");
  const unknown = horizons.filter((h) => h.status === "UNKNOWN").length;
  const first = horizons[0].horizon, last = horizons[horizons.length - 1].horizon;
  const parts = [refuted ? plural(refuted, "horizon") + " refuted" : null,
    sat ? "a plan at " + sat.horizon : null, unknown ? unknown + " unknown" : null].filter(Boolean);
  return what + " on " + (first === last ? "horizon " + first : "horizons " + first + ".." + last) +
    ": " + parts.join(", ");
}

function showSolve(result, puzzle, kind) {
  const verdict = $("verdict");
  const badge = el("span", {class: "badge " + (VERDICT_CLASS[result.result] || "none"),
    "data-testid": "verdict-result"}, verdict, result.result);
  badge.setAttribute("aria-label", "verdict: " + result.result);
  if (result.length !== null && result.length !== undefined) {
    el("span", {class: "length", "data-testid": "verdict-length"}, verdict, plural(result.length, "move"));
  }
  if (result.proven_minimal) el("span", {class: "tag good"}, verdict, "proven minimal");
  else if (result.plan && result.plan.length && kind !== "exact" && result.moves === null) {
    el("span", {class: "tag fair"}, verdict, "not proven minimal");
  }
  if (result.moves !== null && result.moves !== undefined) {
    el("span", {class: "tag"}, verdict, "asked: exactly " + plural(result.moves, "move"));
  }
  $("proof").textContent = result.proof || "";

  const dl = $("bounds");
  const row = (term, value, testid) => {
    if (value === null || value === undefined || value === "") return;
    el("dt", {}, dl, term);
    el("dd", testid ? {"data-testid": testid} : {}, dl, value);
  };
  if (result.bound && result.bound.name === "none") {  // started at 0: clingo's refutations alone
    row("lower bound", result.lower_bound + " (no bound used: the search started at 0, and clingo " +
      "refuted every horizon below " + result.lower_bound + ")", "lower-bound");
  } else if (result.bound && result.lower_bound > result.bound.value) {
    row("lower bound", result.lower_bound + " (from " + result.bound.value + ", " + result.bound.name +
      ": " + result.bound.argument + "; clingo refuted the horizons up to " + (result.lower_bound - 1) + ")",
      "lower-bound");
  } else if (result.bound) {
    row("lower bound", result.lower_bound + " (" + result.bound.name + ": " + result.bound.argument + ")",
      "lower-bound");
  } else {
    row("lower bound", result.lower_bound, "lower-bound");
  }
  row("best plan", result.upper_bound === null ? null : plural(result.upper_bound, "move"), "upper-bound");
  if (result.gap) {
    row("gap", String(result.gap) + " (the optimum is " + result.lower_bound + ".." + result.upper_bound + ")", "gap");
  }
  row("stopped", result.stopped, "stopped");
  if (result.unreachable) row("unreachable", "no plan of any length exists");
  row("time", result.time_s !== undefined ? result.time_s.toFixed(3) + " s" : null, "time");
  row("clingo ran", clingoRan(result), "clingo-ran");
  if (result.backend === "page") row("where", "in this page: clingo compiled to WebAssembly, in a Web Worker");
  if (result.first_plan) {
    row("first plan", plural(result.first_plan.length, "move") + " (" + result.first_plan.method + ", " +
      result.first_plan.time_s.toFixed(3) + " s)");
  }
  showHorizons(result.horizons || [], result);
  if (result.plan && puzzle) mountPlayer(puzzle, result.plan);
}

/*
 * A plan the simulator refused: the moves before the first illegal one in the player,
 * and the board where it goes wrong, the refused move marked, as grade draws it.
 * illegal: {horizon, steps, kind, message, moves, state, step, disk, target}.
 */
export function showIllegal(illegal, puzzle) {
  clearResult();
  $("result").hidden = false;
  markOld(false);
  const verdict = $("verdict");
  el("span", {class: "badge bad", "data-testid": "verdict-result"}, verdict,
    illegal.kind === "illegal-plan" ? "ILLEGAL PLAN" : "GOAL NOT REACHED");
  el("span", {class: "length"}, verdict, plural(illegal.horizon, "move"));
  $("proof").textContent = "The simulator refused your encoding's plan: " + illegal.message + ".";
  drawRefused(puzzle, illegal);
  if (illegal.moves.length) {  // the legal moves before it, stepped by the player
    mountPlayer(puzzle, illegal.moves);
    player.goto(illegal.moves.length);
  }
}

function drawRefused(puzzle, bad) {
  const box = $("illegal");
  box.hidden = false;
  const figure = el("figure", {class: "board-figure refused"}, box);
  const placement = placementOf(puzzle, bad.state);
  const board = el("div", {class: "board", "data-testid": "illegal-board"}, figure);
  drawBoard(board, puzzle, placement, {label: "where the plan goes wrong"});
  if (bad.step) {  // the refused move: its disk marked, its target peg red
    const disk = board.querySelector(".hanoi-disk[data-disk=\"" + bad.disk + "\"]");
    if (disk) disk.classList.add("is-picked");
    const target = board.querySelector(".hanoi-peg[data-peg=\"" + CSS.escape(bad.target) + "\"]");
    if (target) target.classList.add("is-refused");
  }
  el("figcaption", {}, figure, bad.step
    ? "before step " + bad.step + ": disk " + bad.disk + " → " + bad.target + " is refused"
    : "the end of the plan: the goal is not reached");
}

/* A counterexample's plan on its puzzle: the student's plan up to its first illegal
   move (drawn refused), or the reference plan the encoding rejects. */
function playCounterexample(example, puzzle) {
  const steps = example.plan.map((m) => [m.disk, m.to]);
  const replayed = replay(puzzle, steps);
  const card = document.querySelector("[data-testid=counterexample]");
  if (card) card.append($("illegal"), $("plan-player"));  // under the counterexample
  $("illegal").textContent = "";
  $("illegal").hidden = true;
  if (!replayed.ok) drawRefused(puzzle, replayed);
  if (replayed.ok || replayed.moves.length) {
    mountPlayer(puzzle, replayed.moves);
    if (!replayed.ok) player.goto(replayed.moves.length);
  }
  (card || $("plan-player")).scrollIntoView({block: "nearest"});
}

/* The illegal board and the player back in their place in the result (a counterexample
   took them under its card). */
function homePlaces() {
  const before = $("horizons");
  if ($("illegal").parentNode !== before.parentNode) before.before($("illegal"), $("plan-player"));
}

const HORIZON_COLUMNS = [
  ["horizon", "horizon"], ["status", "status"], ["time_s", "time (s)"], ["choices", "choices"],
  ["conflicts", "conflicts"], ["atoms", "atoms"], ["rules", "rules"], ["phase", "phase"]
];

function showHorizons(horizons, result) {
  lastHorizons = horizons;
  const wrap = $("horizons"), table = $("horizon-table");
  wrap.hidden = false;
  table.textContent = "";
  if (!horizons.length) {
    $("horizon-chart").textContent = "";
    el("p", {class: "note", "data-testid": "no-horizons"}, $("horizon-chart"),
      "clingo searched " + clingoRan(result) + ".");
    return;
  }
  el("caption", {class: "visually-hidden"}, table, "per-horizon statistics");
  const head = el("tr", {}, el("thead", {}, table));
  for (const c of HORIZON_COLUMNS) el("th", {scope: "col"}, head, c[1]);
  const tbody = el("tbody", {}, table);
  for (const h of horizons) {
    const tr = el("tr", {class: "status-" + h.status}, tbody);
    for (const c of HORIZON_COLUMNS) {
      let value = h[c[0]];
      if (c[0] === "time_s" && typeof value === "number") value = value.toFixed(4);
      el("td", {}, tr, value === undefined || value === null ? "" : value);
    }
  }
  drawChart();
}

/* The axis's top and its tick step, both round (1, 2 or 5 times a power of ten), with
   at most 5 steps up to the largest value; whole steps for counts. */
export function roundScale(largest, whole) {
  if (!(largest > 0)) return [1, whole ? 1 : 0.5];
  let step = Math.pow(10, Math.floor(Math.log10(largest / 5)));
  for (const factor of [1, 2, 5, 10]) {
    if (largest / (step * factor) <= 5) { step *= factor; break; }
  }
  if (whole) step = Math.max(1, Math.round(step));
  return [Math.ceil(largest / step - 1e-9) * step, step];
}

/* A bar per horizon: the chosen measure, coloured by status. */
function drawChart() {
  const box = $("horizon-chart"), measure = $("chart-measure").value;
  const label = $("chart-measure").selectedOptions[0].textContent;
  box.textContent = "";
  const rows = lastHorizons;
  if (!rows.length) return;
  const W = 640, H = 220, left = 64, right = 12, top = 14, bottom = 44;
  const [most, tickStep] = roundScale(Math.max(...rows.map((h) => Number(h[measure]) || 0)),
    measure !== "time_s");
  const svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, class: "bar-chart", role: "img",
    "aria-label": label + " per horizon"}, box);
  const plotW = W - left - right, plotH = H - top - bottom;
  const slot = plotW / rows.length, bar = Math.max(2, Math.min(48, slot * 0.7));
  const decimals = Math.max(0, -Math.floor(Math.log10(tickStep) + 1e-9));
  for (let k = 0; k * tickStep <= most * (1 + 1e-9); k++) {
    const value = k * tickStep, y = top + plotH * (1 - value / most);
    svgEl("line", {x1: left, x2: W - right, y1: y, y2: y, class: "grid"}, svg);
    svgEl("text", {x: left - 6, y: y + 4, class: "tick", "text-anchor": "end"}, svg)
      .textContent = value.toFixed(decimals);
  }
  const every = Math.ceil(rows.length / 16);
  rows.forEach((h, i) => {
    const value = Number(h[measure]) || 0, height = plotH * value / most;
    const x = left + slot * i + (slot - bar) / 2;
    const rect = svgEl("rect", {x, y: top + plotH - height, width: bar, height: Math.max(height, 0.5),
      class: "bar status-" + h.status}, svg);
    svgEl("title", {}, rect).textContent = "horizon " + h.horizon + ": " + h.status + ", " + label +
      " " + (h[measure] === undefined || h[measure] === null ? "not measured" : h[measure]);
    if (i % every === 0) {
      svgEl("text", {x: x + bar / 2, y: H - bottom + 16, class: "tick", "text-anchor": "middle"}, svg)
        .textContent = String(h.horizon);
    }
  });
  svgEl("text", {x: left + plotW / 2, y: H - 6, class: "axis", "text-anchor": "middle"}, svg)
    .textContent = "horizon (plan length tried): " + label + "; red refuted, green a plan, grey unknown";
}

$("chart-measure").addEventListener("change", drawChart);

function showExplain(data) {
  const why = data.why_not_shorter, box = $("why");
  box.hidden = false;
  el("h3", {}, box, "Why not shorter?");
  if (!why) {
    el("p", {"data-testid": "why-text"}, box, "Nothing to explain: no minimal plan was found " +
      "(or the plan has no moves).");
  } else {
    const p = el("p", {"data-testid": "why-text"}, box);
    el("strong", {}, p, "No plan of " + plural(why.horizon, "move") + " (" + why.status + "): ");
    p.appendChild(document.createTextNode(why.reason));
    if (why.core && why.core.length) {
      const list = el("p", {class: "core"}, box, "Goal facts that cannot all hold: ");
      for (const atom of why.core) el("code", {}, list, atom);
    }
  }
  const sections = data.sections || [];
  if (sections.length) {
    const body = $("sections-body");
    $("sections").hidden = false;
    el("p", {class: "note"}, body, "Encoding " + data.encoding +
      (data.extras && data.extras.length ? " (with " + data.extras.join(", ") + ")" : ""));
    for (const section of sections) {
      el("h4", {}, body, section.name);
      if (section.intro) el("p", {}, body, section.intro);
      const list = el("ul", {class: "rules"}, body);
      for (const rule of section.rules) {
        const li = el("li", {}, list);
        el("code", {}, li, rule.text);
        el("span", {class: "rule-where"}, li, " line " + rule.line + (rule.program ? ", " + rule.program : ""));
        if (rule.comment) el("div", {class: "rule-comment"}, li, rule.comment);
      }
    }
  }
}
