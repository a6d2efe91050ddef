/*
 * The Solve tab: the instance and the encoding in editors with line numbers, the start
 * and goal drawn and editable by clicking (pick a peg's top disk, then a peg: the
 * instance text is rewritten as facts), and Solve minimal / Exactly M moves / Explain /
 * Grade run through the API (api.js: the server's, or the page's own clingo), Stop
 * ending the run.  The result is drawn by results.js and grade-report.js.
 */

import {$, copy, el, plural} from "./dom.js";
import {splitSpoiler} from "./asp.js";
import {drawBoard, digitToPeg} from "./board.js";
import {Editor} from "./editor.js";
import {errorPlace} from "./api.js";
import {factsText, freeDisks, goalCaption, graphKind, graphText, newPegName, pegOf,
  presetGraph, putDisk, topDisk} from "./domain.js";
import {clearResult, markOld, showIllegal, showResult} from "./results.js";

const LIMITS = {minPegs: 2, maxPegs: 10, minDisks: 1, maxDisks: 12};
const PARSE_DELAY_MS = 350;
const ACTIONS = ["solve", "solve-exact", "explain", "grade", "check"];
const VERB = {solve: "Solving", exact: "Solving", explain: "Explaining", grade: "Grading",
  check: "Checking"};
export const FIRST_EXAMPLE = "03-quickstart.lp";

export function setupSolve(api, hooks) {
  const instance = Editor($("instance-editor"));
  const encoding = Editor($("encoding-editor"));
  const pegStepper = Stepper($("pegs"), removePeg, addPeg);
  const diskStepper = Stepper($("disks"), removeDisk, addDisk);
  const formatSelect = $("format"), examplesSelect = $("examples");
  const BOARD_HELP = $("board-help").textContent.replace(/\s+/g, " ").trim();

  const solve = {
    puzzle: null,       // the parsed instance: {pegs, disks, start, goal, graph, max_moves}
    parsedText: null,   // the text and format it was parsed from
    parsing: null,      // {key, controller, promise} of the parse under way
    timer: null,
    pick: null,         // {board: "start" | "goal", peg}
    examples: [],
    encodings: [],      // the back end's list
    buffers: {},        // encoding name -> the text in the editor (edits kept per encoding)
    spoilers: {},       // exercise name -> its hidden "the bug" paragraph
    current: null,      // the encoding name in the editor
    running: null       // {controller, kind}
  };

  if (api.kind === "page") {  // the page reads .lp facts only
    for (const option of formatSelect.options) option.disabled = option.value !== "lp";
  }

  /* -- the instance -------------------------------------------------------------------- */

  const instanceKey = () => formatSelect.value + "\n" + instance.text();

  function setStale(stale) {
    $("start-board").classList.toggle("is-stale", stale);
    $("goal-board").classList.toggle("is-stale", stale);
  }

  /* Parse the editor's text now; resolves to the puzzle, or null after showing the error. */
  function parseNow() {
    clearTimeout(solve.timer);
    solve.timer = null;
    const key = instanceKey();
    if (solve.puzzle && solve.parsedText === key) return Promise.resolve(solve.puzzle);
    if (solve.parsing && solve.parsing.key === key) return solve.parsing.promise;
    if (solve.parsing) solve.parsing.controller.abort();
    const controller = new AbortController();
    const promise = api.call("parse", {instance: instance.text(), format: formatSelect.value},
      controller.signal).then((answer) => {
      if (solve.parsing && solve.parsing.controller === controller) solve.parsing = null;
      if (!answer.ok) {
        const place = errorPlace(answer.data);
        instance.showError(answer.data.error, place.where === "instance" ? place.line : null);
        setStale(true);
        return null;
      }
      instance.clearError();
      acceptPuzzle(answer.data, key);
      return answer.data;
    }, (error) => {
      if (solve.parsing && solve.parsing.controller === controller) solve.parsing = null;
      if (error.name === "AbortError") return null;
      instance.showError("cannot reach the server: " + error.message, null);
      return null;
    });
    solve.parsing = {key, controller, promise};
    return promise;
  }

  function parseSoon() {
    clearTimeout(solve.timer);
    solve.timer = setTimeout(parseNow, PARSE_DELAY_MS);
  }

  function acceptPuzzle(puzzle, key) {
    solve.puzzle = puzzle;
    solve.parsedText = key;
    solve.pick = null;
    setStale(false);
    drawPuzzle();
  }

  const STACK_DISKS = 5;

  function drawPuzzle() {
    const puzzle = solve.puzzle;
    if (!puzzle) return;
    const pick = solve.pick || {};
    // side by side a board of 5+ disks is drawn too small to read its numbers: stack them
    $("start-board").closest(".ends").classList.toggle("stacked", puzzle.disks >= STACK_DISKS);
    drawBoard($("start-board"), puzzle, puzzle.start, {
      label: "start", marks: {picked: pick.board === "start" ? pick.peg : null},
      onPeg: (peg) => boardClick("start", peg)
    });
    drawBoard($("goal-board"), puzzle, puzzle.goal, {
      label: "goal", marks: {picked: pick.board === "goal" ? pick.peg : null},
      onPeg: (peg) => boardClick("goal", peg)
    });
    $("goal-caption").textContent = goalCaption(puzzle);
    pegStepper.show(puzzle.pegs.length, LIMITS.minPegs, LIMITS.maxPegs);
    diskStepper.show(puzzle.disks, LIMITS.minDisks, LIMITS.maxDisks);
    $("graph").value = graphKind(puzzle);
    const info = $("graph-text");
    info.textContent = graphText(puzzle);
    if (puzzle.max_moves !== null && puzzle.max_moves !== undefined) {
      info.appendChild(document.createTextNode(" At most " + plural(puzzle.max_moves, "move") +
        " (moves(" + puzzle.max_moves + ")). "));
      const drop = el("button", {type: "button", class: "small", "data-testid": "drop-limit"},
        info, "drop the limit");
      drop.addEventListener("click", () => editPuzzle((p) => { p.max_moves = null; }));
    }
  }

  const say = (text) => { $("board-help").textContent = text; };

  /* The boards show the editor's text (not a parse still under way, or an older text). */
  const fresh = () => solve.puzzle !== null && solve.parsedText === instanceKey();

  function boardClick(board, peg) {
    const puzzle = solve.puzzle;
    if (!fresh()) {  // the text changed since the boards were drawn: draw it first
      solve.pick = null;
      parseNow().then((parsed) => { if (parsed) say("The boards now show the text: click again."); });
      return;
    }
    const placement = puzzle[board], pick = solve.pick;
    if (!pick || pick.board !== board) {
      const top = topDisk(placement, peg);
      if (top === null) {
        solve.pick = null;
        say("Peg " + peg + " has no disk in the " + board + ": pick a peg with disks.");
      } else {
        solve.pick = {board, peg};
        say("Disk " + top + " picked in the " + board + ": click the peg it goes to " +
          "(or the same peg to put it back).");
      }
      drawPuzzle();
      return;
    }
    solve.pick = null;
    if (pick.peg === peg) {
      say(BOARD_HELP);
      drawPuzzle();
      return;
    }
    const disk = topDisk(placement, pick.peg);
    editPuzzle((p) => putDisk(p[board], disk, peg));
    say("Disk " + disk + " now on " + peg + " in the " + board + ".");
  }

  /* Change the puzzle, rewrite the instance text as facts, redraw (no parse needed);
     the puzzle is the editor's text, parsed first if it changed. */
  async function editPuzzle(change) {
    if (!fresh() && !(await parseNow())) return;
    const puzzle = copy(solve.puzzle);
    change(puzzle);
    setInstance(factsText(puzzle), puzzle);
    markOld(true);
  }

  /* Put a puzzle's text in the instance editor (as facts), drawn at once. */
  function setInstance(text, puzzle) {
    if (formatSelect.value !== "lp") formatSelect.value = "lp";
    instance.setText(text);
    examplesSelect.value = "";
    instance.clearError();
    if (solve.parsing) { solve.parsing.controller.abort(); solve.parsing = null; }
    const pick = solve.pick;
    acceptPuzzle(puzzle, instanceKey());
    solve.pick = pick;
    drawPuzzle();
  }

  function addPeg() {
    editPuzzle((p) => {
      const kind = graphKind(p);
      p.pegs.push(newPegName(p.pegs));
      if (kind === "linear" || kind === "cyclic") p.graph = presetGraph(kind, p.pegs);
    });
  }

  function removePeg() {
    editPuzzle((p) => {
      const kind = graphKind(p), gone = p.pegs.pop(), first = p.pegs[0];
      for (const which of ["start", "goal"]) {
        for (const d of p[which][gone] || []) putDisk(p[which], d, first);
        delete p[which][gone];
      }
      if (kind === "linear" || kind === "cyclic") p.graph = presetGraph(kind, p.pegs);
      else if (p.graph) p.graph = p.graph.filter((e) => e[0] !== gone && e[1] !== gone);
    });
  }

  function addDisk() {
    editPuzzle((p) => {
      const n = p.disks, disk = n + 1, whole = freeDisks(p).length === 0;
      putDisk(p.start, disk, pegOf(p.start, n) || p.pegs[0]);
      if (whole) putDisk(p.goal, disk, pegOf(p.goal, n) || p.pegs[p.pegs.length - 1]);
      p.disks = disk;
    });
  }

  function removeDisk() {
    editPuzzle((p) => {
      const n = p.disks;
      for (const which of ["start", "goal"]) {
        for (const peg of Object.keys(p[which])) {
          p[which][peg] = p[which][peg].filter((d) => d !== n);
          if (!p[which][peg].length) delete p[which][peg];
        }
      }
      p.disks = n - 1;
    });
  }

  $("graph").addEventListener("change", () => {
    const kind = $("graph").value;
    if (kind !== "custom") editPuzzle((p) => { p.graph = presetGraph(kind, p.pegs); });
  });
  digitToPeg($("start-board"), () => solve.puzzle, (peg) => boardClick("start", peg));
  digitToPeg($("goal-board"), () => solve.puzzle, (peg) => boardClick("goal", peg));

  instance.textarea.addEventListener("input", () => {
    examplesSelect.value = "";
    markOld(true);
    parseSoon();
  });
  formatSelect.addEventListener("change", parseNow);
  examplesSelect.addEventListener("change", () => {
    const chosen = solve.examples.find((e) => e.name === examplesSelect.value);
    if (!chosen) return;
    formatSelect.value = chosen.format || "lp";
    instance.setText(chosen.text);
    instance.clearError();
    say(BOARD_HELP);
    parseNow();
  });

  /* -- the encoding -------------------------------------------------------------------- */

  const defaultEncoding = () => solve.encodings.find((e) => e.default) || solve.encodings[0];
  const encodingEntry = (name) => solve.encodings.find((e) => e.name === name);
  const isExercise = (entry) => /^exercise/.test(entry.title);

  /* The text an encoding starts from in the editor: an exercise without its spoiler. */
  function shippedText(entry) {
    if (!isExercise(entry)) return entry.text;
    const split = splitSpoiler(entry.text);
    if (split.spoiler) solve.spoilers[entry.name] = split.spoiler;
    return split.text;
  }

  /* What to send: null when the editor holds the default encoding (the engine's fast
     path), else the editor's text. */
  function encodingToSend() {
    const fallback = defaultEncoding();
    return fallback && encoding.text() === fallback.text ? null : encoding.text();
  }

  function showEncoding(name, text) {
    if (solve.current !== null) solve.buffers[solve.current] = encoding.text();
    solve.current = name;
    const entry = encodingEntry(name);
    $("encodings").value = name;
    if (text !== undefined) solve.buffers[name] = text;
    encoding.setText(solve.buffers[name] !== undefined ? solve.buffers[name] : shippedText(entry));
    encoding.clearError();
    $("spoiler").hidden = true;
    noteEncoding();
  }

  function noteEncoding() {
    const entry = encodingEntry(solve.current);
    if (!entry) return;
    const edited = encoding.text() !== shippedText(entry);
    const note = isExercise(entry)
      ? "An exercise: a deliberately broken encoding. Grade it, find the bug, fix it here."
      : entry.default ? (api.kind === "page" ? "The engine's own encoding, run by clingo in this " +
        "page (on the site's own instances Solve shows hanoi-asp's answer stored at export: " +
        "edit the encoding, or start at 0, to run clingo)."
        : "The engine's own encoding (the fast path unless you edit it).")
        : entry.title + ".";
    $("encoding-note").textContent = note + (edited ? " Edited." : "");
    $("encoding-reset").disabled = !edited;
    $("show-bug").hidden = !solve.spoilers[entry.name] || !$("spoiler").hidden;
    if (hooks.onEncoding) hooks.onEncoding(solve.current, encoding.text());
  }

  $("encodings").addEventListener("change", () => showEncoding($("encodings").value));
  encoding.textarea.addEventListener("input", () => {
    encoding.clearError();
    markOld(true);
    noteEncoding();
  });
  $("encoding-reset").addEventListener("click", () => {
    const entry = encodingEntry(solve.current);
    encoding.setText(shippedText(entry));
    delete solve.buffers[solve.current];
    encoding.clearError();
    noteEncoding();
  });
  $("show-bug").addEventListener("click", () => {
    const spoiler = solve.spoilers[solve.current];
    if (!spoiler) return;
    const box = $("spoiler");
    box.textContent = spoiler.split("\n").map((line) => line.replace(/^%\s?/, "")).join("\n");
    box.hidden = false;
    $("show-bug").hidden = true;
  });

  /* -- running ------------------------------------------------------------------------- */

  function setBusy(kind) {
    const busy = kind !== null;
    for (const id of ACTIONS) $(id).disabled = busy;
    $("stop").disabled = !busy;
    $("result").setAttribute("aria-busy", String(busy));
    document.body.classList.toggle("is-busy", busy);
    const line = $("busy");
    if (!busy) {
      clearInterval(solve.running && solve.running.ticker);
      line.textContent = "";
      return;
    }
    const started = performance.now();
    const tick = () => {
      const progress = solve.running && solve.running.progress ? " — " + solve.running.progress : "";
      line.textContent = VERB[kind] + "… " + ((performance.now() - started) / 1000).toFixed(1) +
        " s" + progress + " (Stop ends it)";
    };
    tick();
    solve.running.ticker = setInterval(tick, 100);
  }

  function runError(text) {
    const box = $("run-error");
    box.textContent = text;
    box.hidden = !text;
  }

  function timeoutSeconds() {
    let value = Number($("timeout").value);
    if (!isFinite(value) || value <= 0) value = 30;
    value = Math.min(120, Math.max(1, value));
    $("timeout").value = String(value);
    return value;
  }

  function randomCount() {
    if (!$("grade-random").checked) return 0;
    let value = Math.round(Number($("grade-count").value));
    if (!isFinite(value) || value < 1) value = 30;
    value = Math.min(300, value);
    $("grade-count").value = String(value);
    return value;
  }

  async function run(kind) {
    if (solve.running) return;
    runError("");
    encoding.clearError();
    encoding.clearMarks();
    const puzzle = await parseNow();
    if (!puzzle) {
      runError("Fix the instance first (the message is under the instance editor).");
      return;
    }
    const body = {
      instance: instance.text(), format: formatSelect.value,
      encoding: kind === "grade" ? encoding.text() : encodingToSend(),
      moves: null, timeout: timeoutSeconds()
    };
    if (kind === "solve" || kind === "explain") body.bound = $("bound").value;
    if (kind === "check") {
      body.encoding = null;
      body.plan = $("plan-text").value;
    }
    if (kind === "grade") {
      body.random = randomCount();
      body.seed = Math.max(0, Math.round(Number($("grade-seed").value)) || 0);
    }
    if (kind === "exact") {
      const moves = Number($("exact-moves").value);
      if (!Number.isInteger(moves) || moves < 0) {
        runError("Exactly M moves: M must be a whole number of moves, 0 or more.");
        $("exact-moves").focus();
        return;
      }
      body.moves = moves;
    }
    const controller = new AbortController();
    solve.running = {controller, kind, progress: ""};
    if (kind === "grade" && api.kind === "page") {
      body.onGrade = (grade, done, total) => {
        solve.running.progress = grade === null ? "shrinking the first failure to a smallest puzzle"
          : done + " of " + total + " graded" + (grade.passed ? "" : ", a failure");
      };
    }
    markOld(true);
    setBusy(kind);
    try {
      const answer = await api.call(kind === "exact" ? "solve" : kind, body, controller.signal);
      if (answer.ok) {
        showResult(kind, answer.data, puzzle, {onCounterexample: openCounterexample});
        if (kind === "solve" && answer.data.length !== null && answer.data.length !== undefined) {
          $("exact-moves").value = String(answer.data.length);
        }
      } else {
        showFailure(answer, puzzle);
      }
    } catch (error) {
      if (error.name === "AbortError") {
        runError(api.kind === "page" ? "Stopped: you pressed Stop (clingo's worker in this page was ended)."
          : "Stopped: you pressed Stop (the server ends the job).");
      } else {
        runError("Cannot reach the server: " + error.message);
      }
    } finally {
      setBusy(null);
      solve.running = null;
    }
  }

  function showFailure(answer, puzzle) {
    const data = answer.data, place = errorPlace(data);
    if (answer.status === 504 || answer.status === 413) {
      runError(data.error || "The job was refused (" + answer.status + ").");
      return;
    }
    if (place.where === "instance") {
      instance.showError(data.error, place.line);
      runError("The instance has an error (see under the instance editor).");
    } else if (place.where === "plan") {
      runError("The plan cannot be read: " + data.error);
      $("check-box").open = true;
      $("plan-text").focus();
    } else if (place.where === "encoding") {
      encoding.showError(data.error, place.line);
      runError("The encoding has an error (see under the encoding editor).");
      if (data.illegal) showIllegal(data.illegal, puzzle);
    } else {
      runError(data.error);
    }
  }

  /* A counterexample opened as a puzzle on the boards, its plan in the player and the
     rules that reject it marked in the encoding editor. */
  async function openCounterexample(example) {
    const answer = await api.call("parse", {instance: example.instance, format: "lp"});
    if (!answer.ok) return null;
    setInstance(example.instance, answer.data);
    say("The counterexample: " + plural(answer.data.disks, "disk") + " on " +
      plural(answer.data.pegs.length, "peg") + ", at most " + plural(example.horizon, "move") + ".");
    const lines = (example.rules || []).map((r) => r.line);
    if (lines.length) encoding.markLines(lines);
    return answer.data;
  }

  $("solve").addEventListener("click", () => run("solve"));
  $("solve-exact").addEventListener("click", () => run("exact"));
  $("explain").addEventListener("click", () => run("explain"));
  $("grade").addEventListener("click", () => run("grade"));
  $("check").addEventListener("click", () => run("check"));
  $("plan-file").addEventListener("change", async () => {
    const file = $("plan-file").files[0];
    if (!file) return;
    $("plan-text").value = await file.text();
    $("plan-file").value = "";
    run("check");
  });
  $("stop").addEventListener("click", () => { if (solve.running) solve.running.controller.abort(); });
  $("exact-moves").addEventListener("keydown", (event) => { if (event.key === "Enter") run("exact"); });

  /* -- loading ------------------------------------------------------------------------- */

  /* Fill the menus from the back end; `kept` is a stored or shared encoding to show. */
  async function load(kept) {
    const found = await Promise.all([api.call("encodings"), api.call("examples")]);
    if (!found[0].ok || !found[1].ok) throw new Error(found[0].data.error || found[1].data.error);
    solve.encodings = found[0].data.encodings;
    solve.examples = found[1].data.examples;
    const select = $("encodings");
    const whole = el("optgroup", {label: "whole encodings"}, select);
    const exercises = el("optgroup", {label: "exercises (deliberately broken)"}, select);
    for (const e of solve.encodings) {
      el("option", {value: e.name}, isExercise(e) ? exercises : whole, e.name + " — " + e.title);
    }
    const first = kept && encodingEntry(kept.name) ? encodingEntry(kept.name) : defaultEncoding();
    if (first) showEncoding(first.name, kept && kept.name === first.name ? kept.text : undefined);
    for (const e of solve.examples) el("option", {value: e.name}, examplesSelect, e.name);
    const example = solve.examples.find((e) => e.name === FIRST_EXAMPLE) || solve.examples[0];
    if (example) {
      examplesSelect.value = example.name;
      formatSelect.value = example.format || "lp";
      instance.setText(example.text);
    } else {
      instance.setText("peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\n");
    }
    return parseNow();
  }

  return {
    load, parseNow, runError, clearResult,
    encodingText: () => encoding.text(),
    encodingName: () => solve.current,
    setEncoding: (name, text) => showEncoding(encodingEntry(name) ? name : defaultEncoding().name, text)
  };
}

/* A stepper (pegs, disks): its box holds the count; the buttons one fewer and one more
   are made here alike, named by the box (pegs-minus, pegs-plus) and its data-noun. */
function Stepper(root, fewer, more) {
  const name = root.id, noun = root.dataset.noun, count = root.querySelector("span");
  const button = (end, words, sign, act) => {
    const node = el("button", {type: "button", id: name + "-" + end, class: "small",
      "data-testid": name + "-" + end, "aria-label": "one " + noun + " " + words}, null, sign);
    node.addEventListener("click", act);
    return node;
  };
  const minus = button("minus", "fewer", "\u2212", fewer), plus = button("plus", "more", "+", more);
  root.insertBefore(minus, count);
  root.appendChild(plus);
  return {
    show(n, least, most) {
      count.textContent = plural(n, noun);
      minus.disabled = n <= least;
      plus.disabled = n >= most;
    }
  };
}
