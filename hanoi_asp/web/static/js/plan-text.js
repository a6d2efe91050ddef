/*
 * A plan someone hands you, as text (hanoi_asp/inputs/plan_text.py, with its words):
 * move(D,P,T) facts (with or without periods, as clingo prints an answer), the JSON
 * `solve --json` writes (or its list of moves), or DISK FROM TO lines (or as `solve`
 * prints a plan, "1. disk 4: a -> b").  readPlan(text) -> [{line, disk, target, source}]
 * (line null in JSON; source null where the format has none), or throws a PlanProblem
 * with the message and line (its file is PLAN_NAME).  Nothing in the text is run: it is matched.
 */

import {pythonRepr} from "./domain.js";

export const PLAN_NAME = "plan.txt";
const MAX_STEPS = 1000000;
const PEG = "[a-z][A-Za-z0-9_']*|-?[0-9]+|\"(?:[^\"\\\\]|\\\\.)*\"";
const MOVE = new RegExp("\\bmove\\(\\s*([0-9]+)\\s*,\\s*(" + PEG + ")\\s*,\\s*([0-9]+)\\s*\\)", "g");
const ANY_MOVE = /\bmove\(/g;
const LINE = /^(\S+)\s+(\S+)\s+(\S+)$/;
const PRINTED = /^(?:[0-9]+\.\s*)?disk\s+([0-9]+)\s*:\s*(\S+)\s*->\s*(\S+)$/;

export class PlanProblem extends Error {
  constructor(message, line = null) {
    super(message);
    this.line = line;
  }
}

function problem(message, line = null) {
  return new PlanProblem(message, line);
}

export function planFormat(text) {
  if (/^\s*[{[]/.test(text)) return "json";
  const code = text.split("\n").map((line) => line.split("%")[0]).join("\n");
  return /\bmove\(/.test(code) ? "facts" : "lines";
}

export function readPlan(text) {
  const fmt = planFormat(text);
  const steps = fmt === "json" ? jsonSteps(text) : fmt === "facts" ? factSteps(text) : lineSteps(text);
  if (steps.length > MAX_STEPS) throw problem("the plan has over " + MAX_STEPS + " moves");
  return steps;
}

function pegOf(term) {
  if (!term.startsWith("\"")) return term;
  return term.slice(1, -1).replace(/\\(.)/g, (_, c) => (c === "n" ? "\n" : c));
}

function factSteps(text) {
  const byStep = new Map();
  text.split("\n").forEach((line, index) => {
    const number = index + 1, code = line.split("%")[0];
    const found = [...code.matchAll(MOVE)];
    if (found.length !== (code.match(ANY_MOVE) || []).length) {
      throw problem("a move is move(D,P,T): disk D, peg P, step T (integers from 1)", number);
    }
    for (const match of found) {
      const step = Number(match[3]);
      if (step < 1) {
        throw problem("move(" + match[1] + "," + match[2] + "," + step + "): steps count from 1 " +
          "(as solve --facts writes them)", number);
      }
      if (byStep.has(step)) {
        throw problem("two moves at step " + step + " (lines " + byStep.get(step).line + " and " +
          number + ")", number);
      }
      byStep.set(step, {line: number, disk: Number(match[1]), target: pegOf(match[2]), source: null});
    }
  });
  for (let t = 1; t <= byStep.size; t++) {
    if (!byStep.has(t)) throw problem("no move at step " + t + " (the last is " + Math.max(...byStep.keys()) + ")");
  }
  return Array.from({length: byStep.size}, (_, k) => byStep.get(k + 1));
}

function lineSteps(text) {
  const steps = [];
  text.split("\n").forEach((line, index) => {
    const code = line.split(/[%#]/)[0].trim();
    if (!code) return;
    const found = PRINTED.exec(code) || LINE.exec(code);
    if (!found || !/^[0-9]+$/.test(found[1])) {
      throw problem("not a move: " + pythonRepr(code.slice(0, 60)) + " (a line is DISK FROM TO, e.g. '4 a b')",
        index + 1);
    }
    steps.push({line: index + 1, disk: Number(found[1]), target: found[3], source: found[2]});
  });
  return steps;
}

function jsonSteps(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw problem("not JSON: " + error.message);
  }
  if (data && !Array.isArray(data) && typeof data === "object") {
    if (!Array.isArray(data.plan)) {
      throw problem("a JSON plan is solve --json's object (its \"plan\") or a list of moves");
    }
    const result = data.result;
    if (!data.plan.length && result !== undefined && result !== null &&
        result !== "OPTIMUM FOUND" && result !== "SATISFIABLE") {
      throw problem("the JSON holds no plan (its result is " + result + ")");
    }
    data = data.plan;
  }
  if (!Array.isArray(data)) throw problem("a JSON plan is a list of moves");
  return data.map((move, index) => {
    const number = index + 1;
    if (!move || typeof move !== "object" || Array.isArray(move)) {
      throw problem("move " + number + ": a move is {\"disk\": D, \"to\": P}");
    }
    const unknown = Object.keys(move).filter((k) => !["step", "disk", "from", "to"].includes(k)).sort();
    const {disk, to, from} = move;
    if (unknown.length || !Number.isInteger(disk) || typeof to !== "string" ||
        !(from === undefined || from === null || typeof from === "string")) {
      const why = unknown.length ? "unknown key '" + unknown[0] + "'"
        : "it needs \"disk\" (a number) and \"to\" (a peg)";
      throw problem("move " + number + ": a move is {\"disk\": D, \"to\": P}: " + why);
    }
    if ("step" in move && move.step !== number) {
      throw problem("move " + number + " says \"step\": " + JSON.stringify(move.step));
    }
    return {line: null, disk, target: to, source: from === undefined ? null : from};
  });
}
