/*
 * The puzzle's rules, written once for the whole page: its facts, placements, move
 * graphs, the goal test, a simulator that replays a plan and names its first illegal
 * step as `hanoi-asp grade` does (hanoi_asp/model/plan.py), and the text picture of a
 * board (hanoi_asp/outputs/board.py).  No ASP here: the simulator shares nothing with
 * the encodings, so a bug in an encoding cannot hide in it.
 *
 * A puzzle is {pegs: ["a", "b", "c"], disks: 3, start: {a: [1, 2, 3]},
 * goal: {c: [1, 2, 3]}, graph: [["a", "b"], ...] or null (any peg to any other),
 * max_moves: n or null}, disk 1 the largest: /api/parse's object.  A state lists the
 * peg index of every disk (index disk - 1).
 */

const CONSTANT = /^[a-z][A-Za-z0-9_']*$/;
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

/* The ASP term for a peg name (as hanoi_asp.inputs.facts.peg_term). */
export function pegTerm(name) {
  if ((CONSTANT.test(name) && name !== "not") || INTEGER.test(name)) return name;
  return '"' + name.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n") + '"';
}

/* A string as Python's repr() writes it (the command line's messages quote names so:
   `unknown peg 'z'`): single quotes unless only double ones are free, escapes for
   backslashes, the quote and what Python does not print. */
export function pythonRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === "\\" || char === quote) out += "\\" + char;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char !== " " && /[\p{C}\p{Z}]/u.test(char)) {
      const hex = code.toString(16);
      out += code < 0x100 ? "\\x" + hex.padStart(2, "0")
        : code < 0x10000 ? "\\u" + hex.padStart(4, "0") : "\\U" + hex.padStart(8, "0");
    } else out += char;
  }
  return quote + out + quote;
}

/* `init_on(1..3,a). init_on(5,b).`: consecutive disks on one peg as a range. */
function placementFacts(predicate, pegs, placement) {
  const facts = [];
  for (const peg of pegs) {
    const disks = (placement[peg] || []).slice().sort((a, b) => a - b);
    for (let i = 0; i < disks.length;) {
      let j = i;
      while (j + 1 < disks.length && disks[j + 1] === disks[j] + 1) j++;
      const range = j > i ? disks[i] + ".." + disks[j] : String(disks[i]);
      facts.push(predicate + "(" + range + "," + pegTerm(peg) + ").");
      i = j + 1;
    }
  }
  return facts.join(" ");
}

/* The puzzle as the text of an .lp instance; `moves: false` leaves out moves/1 (the
   solver adds the horizon itself, as hanoi_asp.inputs.facts.instance_facts). */
export function factsText(puzzle, {moves = true} = {}) {
  const lines = [
    "peg(" + puzzle.pegs.map(pegTerm).join(";") + ").",
    "disk(1.." + puzzle.disks + ").",
    placementFacts("init_on", puzzle.pegs, puzzle.start)
  ];
  const goal = placementFacts("goal_on", puzzle.pegs, puzzle.goal);
  if (goal) lines.push(goal);
  const edges = (puzzle.graph || []).map((e) => "edge(" + pegTerm(e[0]) + "," + pegTerm(e[1]) + ").");
  for (let i = 0; i < edges.length; i += 4) lines.push(edges.slice(i, i + 4).join(" "));
  if (moves && puzzle.max_moves !== null && puzzle.max_moves !== undefined) {
    lines.push("moves(" + puzzle.max_moves + ").");
  }
  return lines.join("\n") + "\n";
}

/* -- placements ------------------------------------------------------------------------ */

export function topDisk(placement, peg) {
  const disks = placement[peg] || [];
  return disks.length ? disks[disks.length - 1] : null;
}

export function pegOf(placement, disk) {
  for (const peg of Object.keys(placement)) if (placement[peg].includes(disk)) return peg;
  return null;
}

/* Put a disk on a peg at its place by size (disk 1, the largest, at the bottom). */
export function putDisk(placement, disk, peg) {
  for (const p of Object.keys(placement)) {
    placement[p] = placement[p].filter((d) => d !== disk);
    if (!placement[p].length) delete placement[p];
  }
  placement[peg] = (placement[peg] || []).concat([disk]).sort((a, b) => a - b);
}

export function freeDisks(puzzle) {
  const free = [];
  for (let d = 1; d <= puzzle.disks; d++) if (!pegOf(puzzle.goal, d)) free.push(d);
  return free;
}

export function goalCaption(puzzle) {
  const free = freeDisks(puzzle);
  if (!free.length) return "goal";
  return "goal (" + (free.length === 1 ? "disk " : "disks ") + free.join(", ") + ": anywhere)";
}

/* Does the placement meet every goal fact? */
export function reached(puzzle, placement) {
  return Object.keys(puzzle.goal).every((peg) =>
    puzzle.goal[peg].every((d) => pegOf(placement, d) === peg));
}

export function newPegName(pegs) {
  for (const letter of "abcdefghijklmnopqrstuvwxyz") if (!pegs.includes(letter)) return letter;
  for (let k = 1; ; k++) if (!pegs.includes("p" + k)) return "p" + k;
}

/* -- move graphs ----------------------------------------------------------------------- */

/* The presets of the page's "moves" menu (hanoi_asp.model.puzzle.preset_edges). */
export function presetGraph(kind, pegs) {
  const edges = [], n = pegs.length;
  if (kind === "linear") {  // each pair forwards, then each backwards, as preset_edges
    for (let i = 0; i + 1 < n; i++) edges.push([pegs[i], pegs[i + 1]]);
    for (let i = 0; i + 1 < n; i++) edges.push([pegs[i + 1], pegs[i]]);
  } else if (kind === "cyclic") {
    if (n >= 2) for (let k = 0; k < n; k++) edges.push([pegs[k], pegs[(k + 1) % n]]);
  } else {
    return null;
  }
  return edges;
}

function sameEdges(a, b) {
  const key = (e) => JSON.stringify([e[0], e[1]]);
  const sa = new Set(a.map(key)), sb = new Set(b.map(key));
  return sa.size === sb.size && [...sa].every((k) => sb.has(k));
}

export function graphKind(puzzle) {
  if (!puzzle.graph) return "complete";
  if (sameEdges(puzzle.graph, presetGraph("linear", puzzle.pegs))) return "linear";
  if (sameEdges(puzzle.graph, presetGraph("cyclic", puzzle.pegs))) return "cyclic";
  return "custom";
}

export function allowed(puzzle, from, to) {
  if (!puzzle.graph) return true;
  return puzzle.graph.some((e) => e[0] === from && e[1] === to);
}

export function graphText(puzzle) {
  if (!puzzle.graph) return "Moves: any peg to any other.";
  if (!puzzle.graph.length) return "Moves: none (the move graph has no edges).";
  return "Moves only along: " + puzzle.graph.map((e) => e[0] + "→" + e[1]).join(", ") + ".";
}

/* -- states and the simulator ---------------------------------------------------------- */

export function stateOf(puzzle, placement) {
  const state = new Array(puzzle.disks).fill(-1);
  for (const peg of Object.keys(placement)) {
    for (const disk of placement[peg]) state[disk - 1] = puzzle.pegs.indexOf(peg);
  }
  return state;
}

export function placementOf(puzzle, state) {
  const placement = {};
  state.forEach((peg, index) => {
    if (peg < 0) return;
    (placement[puzzle.pegs[peg]] = placement[puzzle.pegs[peg]] || []).push(index + 1);
  });
  return placement;
}

/* Why moving `disk` to peg index `target` is illegal in `state`, or null: the words of
   hanoi_asp.model.plan.legal_move. */
export function legalMove(puzzle, state, disk, target) {
  if (!(disk >= 1 && disk <= state.length)) return "there is no disk " + disk;
  const source = state[disk - 1];
  if (source === target) return "disk " + disk + " is already on that peg";
  if (!allowed(puzzle, puzzle.pegs[source], puzzle.pegs[target])) {
    return "the move graph does not allow a move between these pegs in this direction";
  }
  const smaller = state.slice(disk);  // disks disk+1.. are the smaller ones
  if (smaller.includes(source)) return "disk " + disk + " is not on top (a smaller disk lies on it)";
  if (smaller.includes(target)) return "disk " + disk + " would be put on a smaller disk";
  return null;
}

/*
 * Replay [disk, target peg name] steps from the start, as hanoi_asp.model.plan.replay:
 * {ok: true, moves} with moves [{step, disk, from, to}], or {ok: false, kind, message,
 * moves (the legal ones before), state (before the bad step, or at the end), step,
 * disk, target}: kind "illegal-plan" for the first illegal step, "goal-not-reached"
 * when a goal disk ends elsewhere.
 */
export function replay(puzzle, steps) {
  const state = stateOf(puzzle, puzzle.start);
  const moves = [];
  for (let index = 0; index < steps.length; index++) {
    const step = index + 1, [disk, targetName] = steps[index];
    const target = puzzle.pegs.indexOf(targetName);
    const problem = target < 0 ? "unknown peg " + pythonRepr(String(targetName))
      : legalMove(puzzle, state, disk, target);
    if (problem) {
      return {ok: false, kind: "illegal-plan", moves, state: state.slice(), step, disk,
        target: targetName,
        message: target < 0 ? "step " + step + ": " + problem
          : "step " + step + ": illegal move of disk " + disk + " to " + targetName + ": " + problem};
    }
    moves.push({step, disk, from: puzzle.pegs[state[disk - 1]], to: targetName});
    state[disk - 1] = target;
  }
  const goal = stateOf(puzzle, puzzle.goal);
  for (let disk = 1; disk <= puzzle.disks; disk++) {
    const peg = goal[disk - 1];
    if (peg >= 0 && state[disk - 1] !== peg) {
      return {ok: false, kind: "goal-not-reached", moves, state: state.slice(), step: null,
        message: "goal not reached: disk " + disk + " ends on " + puzzle.pegs[state[disk - 1]] +
          ", the goal wants it on " + puzzle.pegs[peg]};
    }
  }
  return {ok: true, moves};
}

/* The pegs side by side in text, disk 1 widest (hanoi_asp.outputs.board.draw_board). */
export function asciiBoard(puzzle, state) {
  const n = puzzle.disks, width = 2 * n + 2;
  const towers = puzzle.pegs.map(() => []);
  state.forEach((peg, index) => { if (peg >= 0) towers[peg].push(index + 1); });
  const height = Math.max(...towers.map((t) => t.length)) + 1;
  const centre = (text) => {
    const left = Math.floor((width - text.length) / 2);
    return " ".repeat(Math.max(0, left)) + text + " ".repeat(Math.max(0, width - text.length - left));
  };
  const cell = (tower, level) => {
    if (level >= tower.length) return centre("|");
    const disk = tower[level], size = n - disk + 1;
    return centre("=".repeat(size) + disk + "=".repeat(size));
  };
  const rows = [];
  for (let level = height - 1; level >= 0; level--) {
    rows.push(towers.map((t) => cell(t, level)).join(" ").replace(/\s+$/, ""));
  }
  rows.push(towers.map(() => "-".repeat(width)).join(" "));
  rows.push(puzzle.pegs.map((name) => centre(name.slice(0, width))).join(" ").replace(/\s+$/, ""));
  return rows.join("\n");
}
