/*
 * Random puzzles for grading in the page, small to large, each with its reference
 * answer from breadth-first search (search.js), as `grade --random` makes them
 * (hanoi_asp/teaching/random_puzzles.py): arbitrary starts, full and partial goals,
 * sometimes a restricted move graph (when the encoding reads edge/2), and for each the
 * horizons to ask: one below the optimum (no plan may exist), the optimum (a plan must
 * exist and replay) and one or two above (any plan given must replay).  The same seed
 * gives the same puzzles (in this page; the command line draws its own).
 *
 *   randomTrials(count, seed, {maxDisks: 6, maxPegs: 5, graphs: false})
 *     -> [{name, puzzle, optimum (null: no plan at all), plan, horizons}]
 */

import {presetGraph, stateOf} from "./domain.js";
import {distances} from "./search.js";

export const MAX_DISKS = 6, MAX_PEGS = 5;
const PEG_NAMES = "abcdefghij";
const MAX_OPTIMUM = 64, MAX_OPTIMUM_HARD = 30, DRAWS = 40, UNREACHABLE_HORIZON = 6;

/* A small seeded generator (mulberry32): the same seed, the same puzzles. */
export function generator(seed) {
  let state = (seed >>> 0) || 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random: next,
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    choice: (items) => items[Math.floor(next() * items.length)],
    sample2: (items) => {
      const first = Math.floor(next() * items.length);
      let second = Math.floor(next() * (items.length - 1));
      if (second >= first) second++;
      return [items[first], items[second]];
    }
  };
}

function randomGraph(rng, pegs) {
  const choice = rng.choice(["linear", "cyclic", "random"]);
  if (choice !== "random") return presetGraph(choice, pegs);
  const pairs = [];
  for (const a of pegs) for (const b of pegs) if (a !== b) pairs.push([a, b]);
  const chosen = pairs.filter(() => rng.random() < 0.6);
  return chosen.length ? chosen : [rng.choice(pairs)];
}

function randomPuzzle(rng, pegCount, disks, {graph, partial}) {
  const pegs = PEG_NAMES.slice(0, pegCount).split("");
  const start = {}, goal = {};
  const towers = rng.random() < 0.25;  // the classic shape: one tower to another
  const [startPeg, goalPeg] = rng.sample2(pegs);
  let named = [];
  for (let d = 1; d <= disks; d++) if (!partial || rng.random() < 0.5) named.push(d);
  if (!named.length) named = [rng.int(1, disks)];  // no goal fact at all: clingo would warn
  for (let d = 1; d <= disks; d++) {
    const peg = towers ? startPeg : rng.choice(pegs);
    (start[peg] = start[peg] || []).push(d);
  }
  for (const d of named) {
    const peg = towers ? goalPeg : rng.choice(pegs);
    (goal[peg] = goal[peg] || []).push(d);
  }
  return {pegs, disks, start, goal, graph: graph ? randomGraph(rng, pegs) : null, max_moves: null};
}

function horizonsFor(optimum, rng) {
  if (optimum === null) return [rng.int(0, UNREACHABLE_HORIZON)];
  const below = optimum > 0 ? [optimum - 1] : [];
  return [...below, optimum, optimum + rng.int(1, 2)];
}

export function randomTrials(count, seed, {maxDisks = MAX_DISKS, maxPegs = MAX_PEGS, graphs = false} = {}) {
  const rng = generator(seed), trials = [];
  for (let index = 0; index < count; index++) {
    const disks = 1 + Math.floor(index * maxDisks / Math.max(count, 1));
    let puzzle = null, optimum = null, plan = null, pegs = 3, graph = false, smaller = disks;
    for (let attempt = 0; attempt < DRAWS; attempt++) {
      pegs = rng.int(Math.min(3, maxPegs), maxPegs);
      graph = graphs && rng.random() < 1 / 3;
      smaller = Math.max(1, disks - Math.floor(attempt / (DRAWS / 4)));  // too long: fewer disks
      puzzle = randomPuzzle(rng, pegs, smaller, {graph, partial: rng.random() < 0.4});
      const table = distances(puzzle);
      const start = stateOf(puzzle, puzzle.start);
      optimum = table.distance(start);
      optimum = optimum < 0 ? null : optimum;
      plan = optimum === null ? null : table.plan(start);
      if (optimum === null || optimum <= (pegs === 3 && !graph ? MAX_OPTIMUM : MAX_OPTIMUM_HARD)) break;
    }
    const name = "random/" + String(index + 1).padStart(3, "0") + "-" + pegs + "p" + smaller + "d" +
      (graph ? "-graph" : "");
    trials.push({name, puzzle, optimum, plan, horizons: horizonsFor(optimum, rng)});
  }
  return trials;
}
