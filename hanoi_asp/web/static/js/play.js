/*
 * The Play tab: move disks by hand (click a peg, then the target peg), illegal moves
 * refused with the reason, undo/redo, and after every move the API's hint on the
 * position: the optimal distance from here, whether the last move kept an optimal plan
 * possible, an optimal next move on demand, and the score at the goal.  The hints come
 * from the server's engine, or in the page from breadth-first search or the reference
 * plan stored with the site; where neither can answer, the hint says so.
 */

import {$, copy, el, plural} from "./dom.js";
import {drawBoard, digitToPeg} from "./board.js";
import {allowed, factsText, goalCaption, graphText, putDisk, reached, topDisk} from "./domain.js";

const HINT_SECONDS = 10;

export function setupPlay(api, {parseNow, selectTab, runError}) {
  const game = {
    puzzle: null,        // {pegs, disks, start, goal, graph}
    positions: [],       // positions[k]: the placement after k moves
    moves: [],           // moves[k - 1]: {disk, from, to}
    redo: [],
    pick: null,          // a peg
    refused: null,       // a peg, drawn red until the next click
    hintShown: null,     // the hint drawn on the board: {disk, from, to}
    hints: {}            // position key -> {controller, done, promise of the hint}
  };

  const keyOf = (placement) => JSON.stringify(game.puzzle.pegs.map((p) => placement[p] || []));
  const current = () => game.positions[game.positions.length - 1];
  const finished = () => reached(game.puzzle, current());

  /* The hint for a position (asked once, then remembered). */
  function hintFor(placement) {
    const key = keyOf(placement);
    if (!game.hints[key] && reached(game.puzzle, placement)) {  // no need to ask
      game.hints[key] = {done: true, promise: Promise.resolve({distance: 0, move: null, proven: true})};
    }
    if (!game.hints[key]) {
      const text = factsText({pegs: game.puzzle.pegs, disks: game.puzzle.disks, start: placement,
        goal: game.puzzle.goal, graph: game.puzzle.graph, max_moves: null});
      const entry = {controller: new AbortController(), done: false};
      entry.promise = api.call("hint", {instance: text, format: "lp", encoding: null, moves: null,
        timeout: HINT_SECONDS}, entry.controller.signal).then((answer) => {
        entry.done = true;
        return answer.ok ? answer.data : {error: answer.data.error};
      }, (error) => {
        entry.done = true;
        return {error: error.name === "AbortError" ? "not needed any more"
          : "cannot reach the server: " + error.message};
      });
      game.hints[key] = entry;
    }
    return game.hints[key].promise;
  }

  /* Stop asking about positions the page no longer shows (so quick moves on a big puzzle
     do not queue up solves on the server): only the start, the last position and this
     one are needed. */
  function dropHints() {
    const needed = new Set();
    const positions = game.positions;
    for (const p of [positions[0], positions[positions.length - 2], current()]) if (p) needed.add(keyOf(p));
    for (const key of Object.keys(game.hints)) {
      const entry = game.hints[key];
      if (!needed.has(key) && !entry.done) {
        entry.controller.abort();
        delete game.hints[key];
      }
    }
  }

  function startGame(puzzle) {
    game.puzzle = {pegs: puzzle.pegs.slice(), disks: puzzle.disks, start: copy(puzzle.start),
      goal: copy(puzzle.goal), graph: puzzle.graph ? copy(puzzle.graph) : null};
    game.positions = [copy(puzzle.start)];
    game.moves = [];
    game.redo = [];
    game.pick = null;
    game.refused = null;
    game.hintShown = null;
    for (const entry of Object.values(game.hints)) if (!entry.done) entry.controller.abort();
    game.hints = {};
    $("play-done").hidden = true;
    status("Click a peg to pick up its top disk, then click the peg it goes to.");
    drawGame();
    afterChange();
  }

  function status(text, kind) {
    const box = $("play-status");
    box.textContent = text;
    box.className = "play-status" + (kind ? " " + kind : "");
  }

  function drawGame() {
    const puzzle = game.puzzle;
    if (!puzzle) return;
    const hint = game.hintShown;
    drawBoard($("play-board"), puzzle, current(), {
      label: "your board",
      marks: {picked: game.pick, refused: game.refused,
        hintFrom: hint ? hint.from : null, hintTo: hint ? hint.to : null},
      onPeg: playClick
    });
    drawBoard($("play-goal"), puzzle, puzzle.goal, {label: "goal"});
    $("play-goal-caption").textContent = goalCaption(puzzle);
    $("play-graph").textContent = graphText(puzzle);
    $("play-count").textContent = String(game.moves.length);
    $("undo").disabled = game.moves.length === 0;
    $("redo").disabled = game.redo.length === 0;
    const list = $("play-moves");
    list.textContent = "";
    for (const m of game.moves) el("li", {}, list, "disk " + m.disk + ": " + m.from + " → " + m.to);
    list.scrollTop = list.scrollHeight;
  }

  function playClick(peg) {
    if (!game.puzzle) return;
    const state = current();
    game.refused = null;
    if (finished()) {
      status("Solved already: Undo to try again, or start a new game.", "good");
      drawGame();
      return;
    }
    if (game.pick === null) {
      const top = topDisk(state, peg);
      if (top === null) {
        game.refused = peg;
        status("Refused: there is no disk on peg " + peg + " to pick up.", "bad");
      } else {
        game.pick = peg;
        status("Disk " + top + " picked up from " + peg + ": click the peg it goes to " +
          "(the same peg puts it back).");
      }
      drawGame();
      return;
    }
    const from = game.pick, disk = topDisk(state, from), there = topDisk(state, peg);
    game.pick = null;
    if (from === peg) {
      status("Disk " + disk + " put back on " + peg + ".");
    } else if (there !== null && there > disk) {
      game.refused = peg;
      status("Refused: disk " + disk + " is larger than disk " + there + " on top of " + peg +
        " (a larger disk never goes onto a smaller one).", "bad");
    } else if (!allowed(game.puzzle, from, peg)) {
      game.refused = peg;
      status("Refused: the move graph has no edge " + from + " → " + peg + ".", "bad");
    } else {
      move({disk, from, to: peg});
      game.redo = [];
      return;
    }
    drawGame();
  }

  function move(m) {
    const next = copy(current());
    putDisk(next, m.disk, m.to);
    game.positions.push(next);
    game.moves.push(m);
    game.hintShown = null;
    status("Disk " + m.disk + ": " + m.from + " → " + m.to + ".");
    drawGame();
    afterChange();
  }

  function undo() {
    if (!game.moves.length) return;
    game.redo.push(game.moves.pop());
    game.positions.pop();
    game.pick = null; game.refused = null; game.hintShown = null;
    status("Undone.");
    drawGame();
    afterChange();
  }

  function redo() {
    if (!game.redo.length) return;
    const m = game.redo.pop(), keep = game.redo;
    game.pick = null; game.refused = null;
    move(m);
    game.redo = keep;
    drawGame();
  }

  function describeDistance(hint) {
    if (hint.error) return "no answer: " + hint.error;
    if (hint.distance === null) {
      return hint.proven ? "no plan reaches the goal from here" : "unknown (no plan found in " +
        HINT_SECONDS + " s)";
    }
    return plural(hint.distance, "move") + (hint.proven ? "" : " at most (not proven in " +
      HINT_SECONDS + " s)");
  }

  /* After a move, undo, redo or a new game: the distance here, the verdict on the last
     move, and the end of the game. */
  function afterChange() {
    const positions = game.positions, here = current(), count = game.moves.length;
    const distance = $("play-distance"), verdict = $("play-verdict");
    distance.textContent = "computing…";
    verdict.textContent = count ? "computing…" : "–";
    verdict.className = "";
    $("play-hint").textContent = "";
    dropHints();
    const before = count ? hintFor(positions[count - 1]) : Promise.resolve(null);
    Promise.all([before, hintFor(here)]).then(([was, now]) => {
      if (current() !== here) return;  // moved on meanwhile
      distance.textContent = describeDistance(now);
      if (count && was && !was.error && !now.error && was.distance !== null && now.distance !== null) {
        const kept = now.distance === was.distance - 1;
        const sure = was.proven && now.proven ? "" : " (bounds not proven)";
        verdict.textContent = kept
          ? "✓ kept an optimal plan possible (" + was.distance + " → " + now.distance + ")" + sure
          : "✗ not optimal: the distance went " + was.distance + " → " + now.distance +
            " (an optimal move makes it " + (was.distance - 1) + ")" + sure;
        verdict.className = kept ? "good" : "bad";
      } else if (count) {
        verdict.textContent = "no verdict (a distance is unknown)";
      }
    });
    if (finished()) {
      hintFor(positions[0]).then((first) => {
        if (current() !== here) return;
        const optimum = first.error || first.distance === null ? "unknown" : first.distance;
        const box = $("play-done");
        box.textContent = count
          ? "Solved in " + plural(count, "move") + "; the optimum from the start was " + optimum + "." +
            (optimum === count ? " Perfect!" : "")
          : "The start already meets the goal: nothing to do.";
        box.hidden = false;
        status("Goal reached.", "good");
      });
    } else {
      $("play-done").hidden = true;
    }
  }

  async function showHint() {
    if (!game.puzzle) return;
    if (finished()) { $("play-hint").textContent = "The goal is reached: no move needed."; return; }
    const here = current();
    $("play-hint").textContent = api.kind === "page" ? "Searching…" : "Asking the engine…";
    const hint = await hintFor(here);
    if (current() !== here) return;
    if (hint.error) { $("play-hint").textContent = "No hint: " + hint.error; return; }
    if (!hint.move) {
      $("play-hint").textContent = hint.proven ? "No plan reaches the goal from here: undo."
        : "No plan found in " + HINT_SECONDS + " s.";
      return;
    }
    game.hintShown = hint.move;
    game.pick = null;
    game.refused = null;
    status("Hint shown in green: disk " + hint.move.disk + " from " + hint.move.from + " to " +
      hint.move.to + ".");
    $("play-hint").textContent = "Hint: move disk " + hint.move.disk + " from " + hint.move.from +
      " to " + hint.move.to + (hint.proven ? " (the first move of a minimal plan)."
        : " (the first move of the best plan found; not proven minimal).");
    drawGame();
  }

  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", showHint);
  $("restart").addEventListener("click", () => { if (game.puzzle) startGame(game.puzzle); });
  digitToPeg($("play-board"), () => game.puzzle, playClick);
  document.addEventListener("keydown", (event) => {
    if ($("panel-play").hidden || !(event.ctrlKey || event.metaKey)) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
    if (event.key === "z") { event.preventDefault(); undo(); }
    if (event.key === "y") { event.preventDefault(); redo(); }
  });

  function quickGame() {
    const pegs = Number($("new-pegs").value), disks = Number($("new-disks").value);
    const names = "abcdefghij".slice(0, pegs).split("");
    const tower = Array.from({length: disks}, (_, k) => k + 1);
    startGame({pegs: names, disks, start: {[names[0]]: tower.slice()},
      goal: {[names[pegs - 1]]: tower.slice()}, graph: null});
  }

  $("new-game").addEventListener("click", quickGame);
  $("play-instance").addEventListener("click", async () => {
    const puzzle = await parseNow();
    if (!puzzle) {
      selectTab($("tab-solve"));
      runError("The instance has an error: fix it to play it.");
      return;
    }
    startGame(puzzle);
    selectTab($("tab-play"));
  });

  for (let p = 3; p <= 6; p++) el("option", {value: String(p)}, $("new-pegs"), p);
  for (let d = 1; d <= 10; d++) el("option", {value: String(d)}, $("new-disks"), d);
  $("new-pegs").value = "3";
  $("new-disks").value = "3";

  return {startGame, quickGame};
}
