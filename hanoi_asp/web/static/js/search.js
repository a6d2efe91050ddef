/*
 * Breadth-first search in the page, for puzzles small enough to enumerate: the exact
 * distance to the goal from every position, so a hint, a lower bound and a reference
 * optimum need no solver.  The search shares nothing with the encodings (it moves
 * disks by the rules of domain.js's simulator), which is what makes it a reference.
 *
 *   const table = distances(puzzle)   // null when the puzzle has too many positions
 *   table.distance(state)             // moves to the goal, -1 when none reaches it
 *   table.plan(state)                 // a shortest plan [{disk, from, to}], or null
 *   table.next(state)                 // the first move of a shortest plan, or null
 *
 * Positions are numbered in base `pegs` (the peg of disk d is digit d - 1), so the table
 * is one Int32Array; it is built backwards from every goal position, over the moves
 * reversed (a move of disk d between p and q needs every smaller disk off both pegs,
 * the same condition in both directions; the move graph's direction is kept).
 */

import {allowed, stateOf} from "./domain.js";

export const STATE_LIMIT = 600000;
/* Positions the page enumerates at most (3 pegs, 12 disks is 531,441). */

const cache = new Map();

function key(puzzle) {
  return JSON.stringify([puzzle.pegs, puzzle.disks, puzzle.goal, puzzle.graph || null]);
}

/* The distance table of the puzzle's pegs, disks, goal and move graph (its start
   does not matter), cached; null past STATE_LIMIT positions. */
export function distances(puzzle) {
  const k = key(puzzle);
  if (cache.has(k)) return cache.get(k);
  const table = build(puzzle);
  if (cache.size > 8) cache.delete(cache.keys().next().value);
  cache.set(k, table);
  return table;
}

export function positions(puzzle) { return Math.pow(puzzle.pegs.length, puzzle.disks); }

function build(puzzle) {
  const P = puzzle.pegs.length, n = puzzle.disks, size = positions(puzzle);
  if (size > STATE_LIMIT) return null;
  const weight = [];
  for (let i = 0, w = 1; i < n; i++, w *= P) weight.push(w);
  const edge = [];  // edge[p * P + q]: a disk may move from p to q
  for (let p = 0; p < P; p++) {
    for (let q = 0; q < P; q++) {
      edge.push(p !== q && allowed(puzzle, puzzle.pegs[p], puzzle.pegs[q]));
    }
  }
  const goal = stateOf(puzzle, puzzle.goal);
  const dist = new Int32Array(size).fill(-1);
  const queue = new Int32Array(size);
  let head = 0, tail = 0;
  const digits = new Int32Array(n);
  for (let code = 0; code < size; code++) {
    let c = code, ok = true;
    for (let i = 0; i < n; i++) {
      const peg = c % P;
      c = (c - peg) / P;
      if (goal[i] >= 0 && goal[i] !== peg) { ok = false; break; }
    }
    if (ok) { dist[code] = 0; queue[tail++] = code; }
  }
  const top = new Int32Array(P);
  while (head < tail) {
    const code = queue[head++], d = dist[code] + 1;
    decode(code, P, n, digits, top);
    for (let q = 0; q < P; q++) {  // the disk on top of q came from some p
      const i = top[q];
      if (i < 0) continue;
      for (let p = 0; p < P; p++) {
        if (p === q || top[p] > i || !edge[p * P + q]) continue;
        const before = code + (p - q) * weight[i];
        if (dist[before] < 0) { dist[before] = d; queue[tail++] = before; }
      }
    }
  }
  return new Table(puzzle, P, n, weight, edge, dist);
}

/* The digits of a position and, per peg, the index of its top (smallest) disk or -1. */
function decode(code, P, n, digits, top) {
  top.fill(-1);
  let c = code;
  for (let i = 0; i < n; i++) {
    const peg = c % P;
    digits[i] = peg;
    c = (c - peg) / P;
    if (i > top[peg]) top[peg] = i;
  }
}

class Table {
  constructor(puzzle, P, n, weight, edge, dist) {
    Object.assign(this, {puzzle, P, n, weight, edge, dist});
  }

  code(state) { return state.reduce((sum, peg, i) => sum + peg * this.weight[i], 0); }

  distance(state) { return this.dist[this.code(state)]; }

  /* Every legal move from a position, with the position it leads to. */
  moves(code) {
    const {P, n} = this, digits = new Int32Array(n), top = new Int32Array(P), out = [];
    decode(code, P, n, digits, top);
    for (let p = 0; p < P; p++) {
      const i = top[p];
      if (i < 0) continue;
      for (let q = 0; q < P; q++) {
        if (q === p || top[q] > i || !this.edge[p * P + q]) continue;
        out.push({disk: i + 1, from: p, to: q, code: code + (q - p) * this.weight[i]});
      }
    }
    return out;
  }

  /* The first move of a shortest plan from `state` ({disk, from, to} with peg names). */
  next(state) {
    const code = this.code(state), d = this.dist[code];
    if (d <= 0) return null;
    const move = this.moves(code).find((m) => this.dist[m.code] === d - 1);
    return {disk: move.disk, from: this.puzzle.pegs[move.from], to: this.puzzle.pegs[move.to]};
  }

  /* A shortest plan from `state`, or null when no plan reaches the goal. */
  plan(state) {
    let code = this.code(state);
    if (this.dist[code] < 0) return null;
    const plan = [];
    while (this.dist[code] > 0) {
      const d = this.dist[code];
      const move = this.moves(code).find((m) => this.dist[m.code] === d - 1);
      plan.push({step: plan.length + 1, disk: move.disk, from: this.puzzle.pegs[move.from],
        to: this.puzzle.pegs[move.to]});
      code = move.code;
    }
    return plan;
  }
}
