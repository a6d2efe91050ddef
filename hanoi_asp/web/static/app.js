/*
 * The playground page of `hanoi-asp serve`: plain JavaScript, no library, no network
 * beyond the server it came from.  Two tabs:
 *
 *   Solve  the instance and the encoding in editors with line numbers, the start and goal
 *          drawn and editable by clicking (pick a peg's top disk, then a peg: the instance
 *          text is rewritten as facts), Solve minimal / Exactly M moves / Explain / Grade
 *          against the JSON API, Stop aborting the request (the server then kills the job);
 *          the result as verdict, proof or gap, horizons (table and chart), "why not
 *          shorter", the grade report, and the plan animated by HanoiPlayer (player.js).
 *   Play   move disks by hand (click a peg, then the target peg), illegal moves refused
 *          with the reason, undo/redo, and after every move /api/hint on the position:
 *          the optimal distance from here, whether the last move kept an optimal plan
 *          possible, an optimal next move on demand, and the score at the goal.
 *
 * The API (see hanoi_asp/web/app.py): GET /api/encodings, /api/examples; POST /api/parse,
 * /api/solve, /api/explain, /api/grade, /api/hint.  Errors: a 4xx with
 * {error, where: "instance" | "encoding" | null, line}.
 */
(function () {
  "use strict";

  var NS = "http://www.w3.org/2000/svg";
  var LIMITS = {minPegs: 2, maxPegs: 10, minDisks: 1, maxDisks: 12};
  var HINT_SECONDS = 10;
  var PARSE_DELAY_MS = 350;

  function $(id) { return document.getElementById(id); }

  function el(name, attrs, parent, text) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }

  function svgEl(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function copy(value) { return JSON.parse(JSON.stringify(value)); }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  /* ---------------------------------------------------------------------------------- */
  /* The API                                                                            */
  /* ---------------------------------------------------------------------------------- */

  /* {ok, status, data} for a JSON answer; a network failure or an abort rejects. */
  async function api(path, body, signal) {
    var init = {headers: {"Accept": "application/json"}, signal: signal};
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    var response = await fetch(path, init);
    var data = null;
    try { data = await response.json(); } catch (ignored) { data = null; }
    if (!data || typeof data !== "object") {
      data = {error: "the server answered " + response.status + " " + response.statusText};
    }
    return {ok: response.ok, status: response.status, data: data};
  }

  /* Where an error points: the server's `where`, else the message's file name. */
  function errorPlace(data) {
    var where = data.where || null, line = data.line || null;
    if (!where && typeof data.error === "string") {
      var match = /^(instance|encoding)\.\w+(?::(\d+))?/.exec(data.error);
      if (match) { where = match[1]; line = match[2] ? Number(match[2]) : line; }
    }
    return {where: where, line: line};
  }

  /* ---------------------------------------------------------------------------------- */
  /* Facts: the puzzle as the text of an .lp instance                                    */
  /* ---------------------------------------------------------------------------------- */

  var CONSTANT = /^[a-z][A-Za-z0-9_']*$/, INTEGER = /^-?(0|[1-9][0-9]*)$/;

  /* The ASP term for a peg name (as hanoi_asp.inputs.facts.peg_term). */
  function pegTerm(name) {
    if ((CONSTANT.test(name) && name !== "not") || INTEGER.test(name)) return name;
    return '"' + name.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n") + '"';
  }

  /* `init_on(1..3,a). init_on(5,b).`: consecutive disks on one peg as a range. */
  function placementFacts(predicate, pegs, placement) {
    var facts = [];
    pegs.forEach(function (peg) {
      var disks = (placement[peg] || []).slice().sort(function (a, b) { return a - b; });
      for (var i = 0; i < disks.length;) {
        var j = i;
        while (j + 1 < disks.length && disks[j + 1] === disks[j] + 1) j++;
        var range = j > i ? disks[i] + ".." + disks[j] : String(disks[i]);
        facts.push(predicate + "(" + range + "," + pegTerm(peg) + ").");
        i = j + 1;
      }
    });
    return facts.join(" ");
  }

  function factsText(puzzle) {
    var lines = [
      "peg(" + puzzle.pegs.map(pegTerm).join(";") + ").",
      "disk(1.." + puzzle.disks + ").",
      placementFacts("init_on", puzzle.pegs, puzzle.start)
    ];
    var goal = placementFacts("goal_on", puzzle.pegs, puzzle.goal);
    if (goal) lines.push(goal);
    var edges = (puzzle.graph || []).map(function (edge) {
      return "edge(" + pegTerm(edge[0]) + "," + pegTerm(edge[1]) + ").";
    });
    for (var i = 0; i < edges.length; i += 4) lines.push(edges.slice(i, i + 4).join(" "));
    if (puzzle.max_moves !== null && puzzle.max_moves !== undefined) {
      lines.push("moves(" + puzzle.max_moves + ").");
    }
    return lines.join("\n") + "\n";
  }

  /* ---------------------------------------------------------------------------------- */
  /* Puzzles: placements, graphs, moves                                                  */
  /* ---------------------------------------------------------------------------------- */

  function topDisk(placement, peg) {
    var disks = placement[peg] || [];
    return disks.length ? disks[disks.length - 1] : null;
  }

  function pegOf(placement, disk) {
    var found = null;
    Object.keys(placement).forEach(function (peg) {
      if (placement[peg].indexOf(disk) >= 0) found = peg;
    });
    return found;
  }

  /* Put a disk on a peg at its place by size (disk 1, the largest, at the bottom). */
  function putDisk(placement, disk, peg) {
    Object.keys(placement).forEach(function (p) {
      placement[p] = placement[p].filter(function (d) { return d !== disk; });
      if (!placement[p].length) delete placement[p];
    });
    var disks = (placement[peg] || []).concat([disk]);
    placement[peg] = disks.sort(function (a, b) { return a - b; });
  }

  function presetGraph(kind, pegs) {
    var edges = [], n = pegs.length;
    if (kind === "linear") {
      for (var i = 0; i + 1 < n; i++) {
        edges.push([pegs[i], pegs[i + 1]]);
        edges.push([pegs[i + 1], pegs[i]]);
      }
    } else if (kind === "cyclic") {
      for (var k = 0; k < n; k++) edges.push([pegs[k], pegs[(k + 1) % n]]);
    } else {
      return null;
    }
    return edges;
  }

  function edgeSet(edges) {
    var set = {};
    edges.forEach(function (e) { set[JSON.stringify([e[0], e[1]])] = true; });
    return set;
  }

  function sameEdges(a, b) {
    var sa = edgeSet(a), sb = edgeSet(b), ka = Object.keys(sa), kb = Object.keys(sb);
    return ka.length === kb.length && ka.every(function (k) { return sb[k]; });
  }

  function graphKind(puzzle) {
    if (!puzzle.graph) return "complete";
    if (sameEdges(puzzle.graph, presetGraph("linear", puzzle.pegs))) return "linear";
    if (sameEdges(puzzle.graph, presetGraph("cyclic", puzzle.pegs))) return "cyclic";
    return "custom";
  }

  function allowed(puzzle, from, to) {
    if (!puzzle.graph) return true;
    return puzzle.graph.some(function (e) { return e[0] === from && e[1] === to; });
  }

  function graphText(puzzle) {
    if (!puzzle.graph) return "Moves: any peg to any other.";
    if (!puzzle.graph.length) return "Moves: none (the move graph has no edges).";
    return "Moves only along: " + puzzle.graph.map(function (e) {
      return e[0] + "→" + e[1];
    }).join(", ") + ".";
  }

  function freeDisks(puzzle) {
    var free = [];
    for (var d = 1; d <= puzzle.disks; d++) if (!pegOf(puzzle.goal, d)) free.push(d);
    return free;
  }

  function goalCaption(puzzle) {
    var free = freeDisks(puzzle);
    if (!free.length) return "goal";
    return "goal (" + (free.length === 1 ? "disk " : "disks ") + free.join(", ") +
      ": anywhere)";
  }

  function reached(puzzle, state) {
    return Object.keys(puzzle.goal).every(function (peg) {
      return puzzle.goal[peg].every(function (d) { return pegOf(state, d) === peg; });
    });
  }

  function newPegName(pegs) {
    var letters = "abcdefghijklmnopqrstuvwxyz";
    for (var i = 0; i < letters.length; i++) {
      if (pegs.indexOf(letters[i]) < 0) return letters[i];
    }
    for (var k = 1; ; k++) if (pegs.indexOf("p" + k) < 0) return "p" + k;
  }

  /* ---------------------------------------------------------------------------------- */
  /* Boards: HanoiPlayer.board with one click target per peg                             */
  /* ---------------------------------------------------------------------------------- */

  /*
   * Draw `placement` into `box`; a click on a peg's column (or Enter / Space on it, or
   * the digit of its position while the board has focus) calls onPeg(peg).
   * marks: {picked: peg, hintFrom: peg, hintTo: peg, refused: peg, free: [disks]}.
   */
  function drawBoard(box, puzzle, placement, options) {
    options = options || {};
    var marks = options.marks || {};
    var svg = HanoiPlayer.board({pegs: puzzle.pegs, disks: puzzle.disks}, placement,
      {free: options.free, label: options.label});
    var box0 = svg.viewBox.baseVal, width = box0.width, height = box0.height;
    var centres = Array.prototype.map.call(svg.querySelectorAll(".hanoi-peg"), function (rect) {
      return Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2;
    });
    var column = centres.length > 1 ? centres[1] - centres[0] : width;
    ["picked", "hintFrom", "hintTo", "refused"].forEach(function (name) {
      var peg = marks[name];
      if (peg === undefined || peg === null) return;
      var top = topDisk(placement, peg);
      if ((name === "picked" || name === "hintFrom") && top !== null) {
        var disk = svg.querySelector('.hanoi-disk[data-disk="' + top + '"]');
        if (disk) disk.classList.add(name === "picked" ? "is-picked" : "is-hint");
      }
    });
    if (options.onPeg) {
      var under = svg.firstChild;  // targets go under the drawing, in the pegs' order
      puzzle.pegs.forEach(function (peg, index) {
        var top = topDisk(placement, peg);
        var classes = ["peg-target"];
        if (marks.picked === peg) classes.push("is-picked");
        if (marks.hintTo === peg) classes.push("is-hint-target");
        if (marks.hintFrom === peg) classes.push("is-hint-source");
        if (marks.refused === peg) classes.push("is-refused");
        var label = (options.label || "board") + ": peg " + peg + ", " +
          (top === null ? "empty" : "top disk " + top) +
          (marks.picked === peg ? ", picked" : "");
        var hit = svgEl("rect", {
          x: centres[index] - column / 2, y: 0, width: column, height: height,
          class: classes.join(" "), "data-peg": peg, "data-testid": "peg-" + peg,
          role: "button", tabindex: "0", "aria-label": label
        });
        svg.insertBefore(hit, under);  // the drawing lets clicks through (app.css)
        hit.addEventListener("click", function () { options.onPeg(peg); });
        hit.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            options.onPeg(peg);
          }
        });
      });
    }
    var focused = box.querySelector(".peg-target:focus");
    var focusPeg = focused ? focused.getAttribute("data-peg") : null;
    box.textContent = "";
    box.appendChild(svg);
    if (focusPeg !== null) {
      var again = Array.prototype.find.call(svg.querySelectorAll(".peg-target"), function (r) {
        return r.getAttribute("data-peg") === focusPeg;
      });
      if (again) again.focus();
    }
    return svg;
  }

  function digitToPeg(box, puzzle, onPeg) {
    box.addEventListener("keydown", function (event) {
      if (!/^[1-9]$/.test(event.key)) return;
      var peg = puzzle().pegs[Number(event.key) - 1];
      if (peg !== undefined) { event.preventDefault(); onPeg(peg); }
    });
  }

  /* ---------------------------------------------------------------------------------- */
  /* Editors: a textarea with a line-number gutter and an error line mark                */
  /* ---------------------------------------------------------------------------------- */

  function Editor(root, errorBox) {
    var textarea = root.querySelector("textarea");
    var gutter = root.querySelector(".gutter");
    var inner = el("div", {class: "gutter-lines"}, gutter);
    var mark = root.querySelector(".line-mark");
    var lines = 0, errorLine = null;

    function lineHeight() {
      return parseFloat(getComputedStyle(textarea).lineHeight) || 24;
    }
    function padTop() {
      return parseFloat(getComputedStyle(textarea).paddingTop) || 0;
    }

    function renumber() {
      var count = textarea.value.split("\n").length;
      if (count !== lines) {
        lines = count;
        inner.textContent = "";
        for (var i = 1; i <= count; i++) el("div", {class: "gutter-line"}, inner, i);
        if (errorLine !== null) markGutter();
      }
      sync();
    }

    function sync() {
      inner.style.transform = "translateY(" + (-textarea.scrollTop) + "px)";
      if (errorLine !== null) {
        mark.style.top = (padTop() + (errorLine - 1) * lineHeight() - textarea.scrollTop) + "px";
        mark.style.height = lineHeight() + "px";
      }
    }

    function markGutter() {
      Array.prototype.forEach.call(inner.children, function (node, index) {
        node.classList.toggle("is-error", index + 1 === errorLine);
      });
    }

    function showError(message, line) {
      errorLine = line && line >= 1 ? line : null;
      markGutter();
      mark.hidden = errorLine === null;
      root.classList.add("has-error");
      errorBox.textContent = "";
      if (errorLine !== null) {
        var go = el("button", {type: "button", class: "line-link",
          "data-testid": root.id + "-error-line",
          "aria-label": "go to line " + errorLine}, errorBox, "line " + errorLine);
        go.addEventListener("click", function () { goToLine(errorLine); });
        errorBox.appendChild(document.createTextNode(" "));
      }
      el("span", {class: "error-text"}, errorBox, message);
      errorBox.hidden = false;
      if (errorLine !== null) reveal(errorLine);
      sync();
    }

    /* Scroll the line into view (a third from the top) if it is not in view now. */
    function reveal(line) {
      var top = (line - 1) * lineHeight(), seen = textarea.scrollTop;
      if (top < seen || top + lineHeight() > seen + textarea.clientHeight - padTop()) {
        textarea.scrollTop = Math.max(0, top - textarea.clientHeight / 3);
      }
    }

    function clearError() {
      errorLine = null;
      markGutter();
      mark.hidden = true;
      root.classList.remove("has-error");
      errorBox.hidden = true;
      errorBox.textContent = "";
    }

    function goToLine(line) {
      var parts = textarea.value.split("\n"), start = 0;
      for (var i = 0; i < line - 1 && i < parts.length; i++) start += parts[i].length + 1;
      var end = start + (parts[line - 1] || "").length;
      textarea.focus();
      textarea.setSelectionRange(start, end);
      reveal(line);
      sync();
    }

    function setText(text) {
      textarea.value = text;
      textarea.scrollTop = 0;
      renumber();
    }

    textarea.addEventListener("input", renumber);
    textarea.addEventListener("scroll", sync);
    textarea.addEventListener("keydown", function (event) {  // a tab key types two spaces
      if (event.key !== "Tab" || event.shiftKey || event.ctrlKey || event.altKey) return;
      if (textarea.selectionStart !== textarea.selectionEnd) return;  // leave: focus moves
      event.preventDefault();
      textarea.setRangeText("  ", textarea.selectionStart, textarea.selectionEnd, "end");
      textarea.dispatchEvent(new Event("input"));
    });
    if (window.ResizeObserver) new ResizeObserver(sync).observe(textarea);
    renumber();

    return {
      textarea: textarea, text: function () { return textarea.value; }, setText: setText,
      showError: showError, clearError: clearError, goToLine: goToLine
    };
  }

  /* ---------------------------------------------------------------------------------- */
  /* Tabs                                                                               */
  /* ---------------------------------------------------------------------------------- */

  var tabs = [$("tab-solve"), $("tab-play")];

  function selectTab(tab) {
    tabs.forEach(function (t) {
      var on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute("aria-controls")).hidden = !on;
    });
  }

  tabs.forEach(function (tab, index) {
    tab.addEventListener("click", function () { selectTab(tab); });
    tab.addEventListener("keydown", function (event) {
      var step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
      if (!step) return;
      var next = tabs[(index + step + tabs.length) % tabs.length];
      selectTab(next);
      next.focus();
    });
  });

  /* ---------------------------------------------------------------------------------- */
  /* Solve tab: the instance                                                             */
  /* ---------------------------------------------------------------------------------- */

  var instance = Editor($("instance-editor"), $("instance-error"));
  var encoding = Editor($("encoding-editor"), $("encoding-error"));
  var formatSelect = $("format"), examplesSelect = $("examples");

  var solve = {
    puzzle: null,       // the parsed instance: {pegs, disks, start, goal, graph, max_moves}
    parsedText: null,   // the text and format it was parsed from
    parsing: null,      // {controller, promise} of the parse under way
    timer: null,
    pick: null,         // {board: "start" | "goal", peg}
    examples: [],
    encodings: [],      // the server's list
    buffers: {},        // encoding name -> the text in the editor (edits kept per encoding)
    current: null,      // the encoding name in the editor
    running: null       // {controller, kind, started, ticker}
  };

  function instanceKey() { return formatSelect.value + "\n" + instance.text(); }

  function setStale(stale) {
    $("start-board").classList.toggle("is-stale", stale);
    $("goal-board").classList.toggle("is-stale", stale);
  }

  /* Parse the editor's text now; resolves to the puzzle, or null after showing the error. */
  function parseNow() {
    clearTimeout(solve.timer);
    solve.timer = null;
    var key = instanceKey();
    if (solve.puzzle && solve.parsedText === key) return Promise.resolve(solve.puzzle);
    if (solve.parsing && solve.parsing.key === key) return solve.parsing.promise;
    if (solve.parsing) solve.parsing.controller.abort();
    var controller = new AbortController();
    var promise = api("/api/parse", {instance: instance.text(), format: formatSelect.value},
      controller.signal).then(function (answer) {
      if (solve.parsing && solve.parsing.controller === controller) solve.parsing = null;
      if (!answer.ok) {
        var place = errorPlace(answer.data);
        instance.showError(answer.data.error, place.where === "instance" ? place.line : null);
        setStale(true);
        return null;
      }
      instance.clearError();
      acceptPuzzle(answer.data, key);
      return answer.data;
    }, function (error) {
      if (solve.parsing && solve.parsing.controller === controller) solve.parsing = null;
      if (error.name === "AbortError") return null;
      instance.showError("cannot reach the server: " + error.message, null);
      return null;
    });
    solve.parsing = {key: key, controller: controller, promise: promise};
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

  function drawPuzzle() {
    var puzzle = solve.puzzle;
    if (!puzzle) return;
    var pick = solve.pick || {};
    drawBoard($("start-board"), puzzle, puzzle.start, {
      label: "start", marks: {picked: pick.board === "start" ? pick.peg : null},
      onPeg: function (peg) { boardClick("start", peg); }
    });
    drawBoard($("goal-board"), puzzle, puzzle.goal, {
      label: "goal", marks: {picked: pick.board === "goal" ? pick.peg : null},
      onPeg: function (peg) { boardClick("goal", peg); }
    });
    $("goal-caption").textContent = goalCaption(puzzle);
    $("pegs-count").textContent = plural(puzzle.pegs.length, "peg");
    $("disks-count").textContent = plural(puzzle.disks, "disk");
    $("pegs-minus").disabled = puzzle.pegs.length <= LIMITS.minPegs;
    $("pegs-plus").disabled = puzzle.pegs.length >= LIMITS.maxPegs;
    $("disks-minus").disabled = puzzle.disks <= LIMITS.minDisks;
    $("disks-plus").disabled = puzzle.disks >= LIMITS.maxDisks;
    var kind = graphKind(puzzle);
    $("graph").value = kind;
    var info = $("graph-text");
    info.textContent = graphText(puzzle);
    if (puzzle.max_moves !== null && puzzle.max_moves !== undefined) {
      info.appendChild(document.createTextNode(" At most " +
        plural(puzzle.max_moves, "move") + " (moves(" + puzzle.max_moves + ")). "));
      var drop = el("button", {type: "button", class: "small", "data-testid": "drop-limit"},
        info, "drop the limit");
      drop.addEventListener("click", function () {
        editPuzzle(function (p) { p.max_moves = null; });
      });
    }
  }

  function say(text) { $("board-help").textContent = text; }

  var BOARD_HELP = $("board-help").textContent.replace(/\s+/g, " ").trim();

  /* The boards show the editor's text (not a parse still under way, or an older text). */
  function fresh() { return solve.puzzle !== null && solve.parsedText === instanceKey(); }

  function boardClick(board, peg) {
    var puzzle = solve.puzzle;
    if (!fresh()) {  // the text changed since the boards were drawn: draw it first
      solve.pick = null;
      parseNow().then(function (parsed) {
        if (parsed) say("The boards now show the text: click again.");
      });
      return;
    }
    var placement = puzzle[board], pick = solve.pick;
    if (!pick || pick.board !== board) {
      var top = topDisk(placement, peg);
      if (top === null) {
        solve.pick = null;
        say("Peg " + peg + " has no disk in the " + board + ": pick a peg with disks.");
      } else {
        solve.pick = {board: board, peg: peg};
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
    var disk = topDisk(placement, pick.peg);
    editPuzzle(function (p) { putDisk(p[board], disk, peg); });
    say("Disk " + disk + " now on " + peg + " in the " + board + ".");
  }

  /* Change the puzzle, rewrite the instance text as facts, redraw (no parse needed);
     the puzzle is the editor's text, parsed first if it changed. */
  async function editPuzzle(change) {
    if (!fresh() && !(await parseNow())) return;
    var puzzle = copy(solve.puzzle);
    change(puzzle);
    if (formatSelect.value !== "lp") formatSelect.value = "lp";
    instance.setText(factsText(puzzle));
    examplesSelect.value = "";
    instance.clearError();
    if (solve.parsing) { solve.parsing.controller.abort(); solve.parsing = null; }
    var pick = solve.pick;
    acceptPuzzle(puzzle, instanceKey());
    solve.pick = pick;
    markOld(true);
    drawPuzzle();
  }

  function addPeg() {
    editPuzzle(function (p) {
      var kind = graphKind(p);
      p.pegs.push(newPegName(p.pegs));
      if (kind === "linear" || kind === "cyclic") p.graph = presetGraph(kind, p.pegs);
    });
  }

  function removePeg() {
    editPuzzle(function (p) {
      var kind = graphKind(p), gone = p.pegs.pop(), first = p.pegs[0];
      ["start", "goal"].forEach(function (which) {
        (p[which][gone] || []).forEach(function (d) { putDisk(p[which], d, first); });
        delete p[which][gone];
      });
      if (kind === "linear" || kind === "cyclic") p.graph = presetGraph(kind, p.pegs);
      else if (p.graph) {
        p.graph = p.graph.filter(function (e) { return e[0] !== gone && e[1] !== gone; });
      }
    });
  }

  function addDisk() {
    editPuzzle(function (p) {
      var n = p.disks, disk = n + 1, whole = freeDisks(p).length === 0;
      putDisk(p.start, disk, pegOf(p.start, n) || p.pegs[0]);
      if (whole) putDisk(p.goal, disk, pegOf(p.goal, n) || p.pegs[p.pegs.length - 1]);
      p.disks = disk;
    });
  }

  function removeDisk() {
    editPuzzle(function (p) {
      var n = p.disks;
      ["start", "goal"].forEach(function (which) {
        Object.keys(p[which]).forEach(function (peg) {
          p[which][peg] = p[which][peg].filter(function (d) { return d !== n; });
          if (!p[which][peg].length) delete p[which][peg];
        });
      });
      p.disks = n - 1;
    });
  }

  $("pegs-plus").addEventListener("click", addPeg);
  $("pegs-minus").addEventListener("click", removePeg);
  $("disks-plus").addEventListener("click", addDisk);
  $("disks-minus").addEventListener("click", removeDisk);
  $("graph").addEventListener("change", function () {
    var kind = $("graph").value;
    if (kind === "custom") return;
    editPuzzle(function (p) { p.graph = presetGraph(kind, p.pegs); });
  });
  digitToPeg($("start-board"), function () { return solve.puzzle; },
    function (peg) { boardClick("start", peg); });
  digitToPeg($("goal-board"), function () { return solve.puzzle; },
    function (peg) { boardClick("goal", peg); });

  instance.textarea.addEventListener("input", function () {
    examplesSelect.value = "";
    markOld(true);
    parseSoon();
  });
  formatSelect.addEventListener("change", parseNow);
  examplesSelect.addEventListener("change", function () {
    var chosen = solve.examples.filter(function (e) { return e.name === examplesSelect.value; })[0];
    if (!chosen) return;
    formatSelect.value = chosen.format || "lp";
    instance.setText(chosen.text);
    instance.clearError();
    say(BOARD_HELP);
    parseNow();
  });

  /* ---------------------------------------------------------------------------------- */
  /* Solve tab: the encoding                                                             */
  /* ---------------------------------------------------------------------------------- */

  function defaultEncoding() {
    return solve.encodings.filter(function (e) { return e.default; })[0] || solve.encodings[0];
  }

  function encodingEntry(name) {
    return solve.encodings.filter(function (e) { return e.name === name; })[0];
  }

  /* What to send: null when the editor holds the default encoding (the engine's fast
     path), else the editor's text. */
  function encodingToSend() {
    var fallback = defaultEncoding();
    return fallback && encoding.text() === fallback.text ? null : encoding.text();
  }

  function showEncoding(name) {
    if (solve.current !== null) solve.buffers[solve.current] = encoding.text();
    solve.current = name;
    var entry = encodingEntry(name);
    encoding.setText(solve.buffers[name] !== undefined ? solve.buffers[name] : entry.text);
    encoding.clearError();
    noteEncoding();
  }

  function noteEncoding() {
    var entry = encodingEntry(solve.current);
    if (!entry) return;
    var edited = encoding.text() !== entry.text;
    var note = /^exercise/.test(entry.title)
      ? "An exercise: a deliberately broken encoding. Grade it, find the bug, fix it here."
      : entry.default ? "The engine's own encoding (the fast path unless you edit it)."
        : entry.title + ".";
    $("encoding-note").textContent = note + (edited ? " Edited." : "");
    $("encoding-reset").disabled = !edited;
  }

  $("encodings").addEventListener("change", function () { showEncoding($("encodings").value); });
  encoding.textarea.addEventListener("input", function () {
    encoding.clearError();
    markOld(true);
    noteEncoding();
  });
  $("encoding-reset").addEventListener("click", function () {
    var entry = encodingEntry(solve.current);
    encoding.setText(entry.text);
    delete solve.buffers[solve.current];
    encoding.clearError();
    noteEncoding();
  });

  /* ---------------------------------------------------------------------------------- */
  /* Solve tab: running a job                                                            */
  /* ---------------------------------------------------------------------------------- */

  var ACTIONS = ["solve", "solve-exact", "explain", "grade"];
  var VERB = {solve: "Solving", exact: "Solving", explain: "Explaining", grade: "Grading"};

  function setBusy(kind) {
    var busy = kind !== null;
    ACTIONS.forEach(function (id) { $(id).disabled = busy; });
    $("stop").disabled = !busy;
    $("result").setAttribute("aria-busy", String(busy));
    document.body.classList.toggle("is-busy", busy);
    var line = $("busy");
    if (!busy) {
      clearInterval(solve.running && solve.running.ticker);
      line.textContent = "";
      return;
    }
    var started = performance.now();
    function tick() {
      line.textContent = VERB[kind] + "… " + ((performance.now() - started) / 1000).toFixed(1) +
        " s (Stop ends it)";
    }
    tick();
    solve.running.ticker = setInterval(tick, 100);
  }

  function runError(text) {
    var box = $("run-error");
    box.textContent = text;
    box.hidden = !text;
  }

  function timeoutSeconds() {
    var value = Number($("timeout").value);
    if (!isFinite(value) || value <= 0) value = 30;
    value = Math.min(120, Math.max(1, value));
    $("timeout").value = String(value);
    return value;
  }

  async function run(kind) {
    if (solve.running) return;
    runError("");
    encoding.clearError();
    var puzzle = await parseNow();
    if (!puzzle) {
      runError("Fix the instance first (the message is under the instance editor).");
      return;
    }
    var body = {
      instance: instance.text(), format: formatSelect.value,
      encoding: kind === "grade" ? encoding.text() : encodingToSend(),
      moves: null, timeout: timeoutSeconds()
    };
    if (kind === "exact") {
      var moves = Number($("exact-moves").value);
      if (!Number.isInteger(moves) || moves < 0) {
        runError("Exactly M moves: M must be a whole number of moves, 0 or more.");
        $("exact-moves").focus();
        return;
      }
      body.moves = moves;
    }
    var controller = new AbortController();
    solve.running = {controller: controller, kind: kind};
    markOld(true);
    setBusy(kind);
    var path = "/api/" + (kind === "exact" ? "solve" : kind);
    try {
      var answer = await api(path, body, controller.signal);
      if (answer.ok) {
        showResult(kind, answer.data, puzzle, body);
      } else {
        showFailure(answer);
      }
    } catch (error) {
      if (error.name === "AbortError") {
        runError("Stopped: you pressed Stop (the server ends the job).");
      } else {
        runError("Cannot reach the server: " + error.message);
      }
    } finally {
      setBusy(null);
      solve.running = null;
    }
  }

  /* A result shown while another run is under way, or after it failed, is the previous
     run's: dimmed and said so. */
  function markOld(old) {
    var box = $("result");
    box.classList.toggle("is-old", old && !box.hidden);
    $("result-heading").textContent = old && !box.hidden ? "Result (of the previous run)"
      : "Result";
  }

  function showFailure(answer) {
    var data = answer.data, place = errorPlace(data);
    if (answer.status === 504) {
      runError(data.error || "Stopped: the job ran past its hard time limit.");
      return;
    }
    if (answer.status === 413) {
      runError(data.error || "The request is too large.");
      return;
    }
    if (place.where === "instance") {
      instance.showError(data.error, place.line);
      runError("The instance has an error (see under the instance editor).");
    } else if (place.where === "encoding") {
      encoding.showError(data.error, place.line);
      runError("The encoding has an error (see under the encoding editor).");
    } else {
      runError(data.error);
    }
  }

  $("solve").addEventListener("click", function () { run("solve"); });
  $("solve-exact").addEventListener("click", function () { run("exact"); });
  $("explain").addEventListener("click", function () { run("explain"); });
  $("grade").addEventListener("click", function () { run("grade"); });
  $("stop").addEventListener("click", function () {
    if (solve.running) solve.running.controller.abort();
  });
  $("exact-moves").addEventListener("keydown", function (event) {
    if (event.key === "Enter") run("exact");
  });

  /* ---------------------------------------------------------------------------------- */
  /* Solve tab: the result                                                               */
  /* ---------------------------------------------------------------------------------- */

  var player = null;

  var VERDICT_CLASS = {
    "OPTIMUM FOUND": "good", "SATISFIABLE": "fair", "UNSATISFIABLE": "bad", "UNKNOWN": "none"
  };

  function clearResult() {
    if (player) { player.destroy(); player = null; }
    ["verdict", "proof", "bounds", "why", "grade-report", "plan-player", "horizon-chart",
      "horizon-table", "sections-body"].forEach(function (id) { $(id).textContent = ""; });
    ["why", "grade-report", "horizons", "sections"].forEach(function (id) { $(id).hidden = true; });
    $("plan-player").classList.remove("hanoi-player");
  }

  function showResult(kind, data, puzzle) {
    clearResult();
    $("result").hidden = false;
    markOld(false);
    if (kind === "grade") {
      showGrade(data);
    } else {
      var result = kind === "explain" ? data.result : data;
      showSolve(result, puzzle, kind);
      if (kind === "explain") showExplain(data);
      if (kind === "solve" && result.length !== null && result.length !== undefined) {
        $("exact-moves").value = String(result.length);
      }
    }
    $("result").scrollIntoView({block: "nearest"});
  }

  function showSolve(result, puzzle, kind) {
    var verdict = $("verdict");
    var badge = el("span", {class: "badge " + (VERDICT_CLASS[result.result] || "none"),
      "data-testid": "verdict-result"}, verdict, result.result);
    badge.setAttribute("aria-label", "verdict: " + result.result);
    if (result.length !== null && result.length !== undefined) {
      el("span", {class: "length", "data-testid": "verdict-length"}, verdict,
        plural(result.length, "move"));
    }
    if (result.proven_minimal) el("span", {class: "tag good"}, verdict, "proven minimal");
    else if (result.plan && kind !== "exact" && result.moves === null) {
      el("span", {class: "tag fair"}, verdict, "not proven minimal");
    }
    if (result.moves !== null && result.moves !== undefined) {
      el("span", {class: "tag"}, verdict, "asked: exactly " + plural(result.moves, "move"));
    }
    $("proof").textContent = result.proof || "";

    var dl = $("bounds");
    function row(term, value, testid) {
      if (value === null || value === undefined || value === "") return;
      el("dt", {}, dl, term);
      el("dd", testid ? {"data-testid": testid} : {}, dl, value);
    }
    if (result.bound) {
      row("lower bound", result.lower_bound + " (" + result.bound.name + ": " +
        result.bound.argument + ")", "lower-bound");
    } else {
      row("lower bound", result.lower_bound, "lower-bound");
    }
    row("best plan", result.upper_bound === null ? null : plural(result.upper_bound, "move"),
      "upper-bound");
    if (result.gap) row("gap", String(result.gap) + " (the optimum is " + result.lower_bound +
      ".." + result.upper_bound + ")", "gap");
    row("stopped", result.stopped, "stopped");
    if (result.unreachable) row("unreachable", "no plan of any length exists");
    row("time", result.time_s !== undefined ? result.time_s.toFixed(3) + " s" : null, "time");
    row("clingo ran", (result.programs || []).join(" + ") +
      (result.threads ? " with " + plural(result.threads, "thread") : "") +
      (result.mode ? ", " + result.mode : ""));
    if (result.first_plan) {
      row("first plan", plural(result.first_plan.length, "move") + " (" +
        result.first_plan.method + ", " + result.first_plan.time_s.toFixed(3) + " s)");
    }

    showHorizons(result.horizons || [], result);
    if (result.plan && puzzle) {
      var box = $("plan-player");
      player = HanoiPlayer.mount(box, {
        pegs: puzzle.pegs, disks: puzzle.disks, start: puzzle.start, goal: puzzle.goal,
        plan: result.plan.map(function (m) { return {disk: m.disk, from: m.from, to: m.to}; })
      }, {speed: 2, ends: false});
    }
  }

  var HORIZON_COLUMNS = [
    ["horizon", "horizon"], ["status", "status"], ["time_s", "time (s)"],
    ["choices", "choices"], ["conflicts", "conflicts"], ["atoms", "atoms"],
    ["rules", "rules"], ["phase", "phase"]
  ];

  var lastHorizons = [];

  function showHorizons(horizons, result) {
    lastHorizons = horizons;
    var wrap = $("horizons"), table = $("horizon-table");
    wrap.hidden = false;
    table.textContent = "";
    if (!horizons.length) {
      $("horizon-chart").textContent = "";
      var why = result.stopped
        ? "clingo finished no horizon before the search stopped (" + result.stopped + ")."
        : result.proven_minimal && result.length === result.lower_bound
          ? "clingo searched no horizon: the plan built first met the lower bound, so " +
            "nothing was left to refute. Explain (which lets clingo find the plan) shows a " +
            "search."
          : "clingo searched no horizon.";
      el("p", {class: "note", "data-testid": "no-horizons"}, $("horizon-chart"), why);
      return;
    }
    el("caption", {class: "visually-hidden"}, table, "per-horizon statistics");
    var head = el("tr", {}, el("thead", {}, table));
    HORIZON_COLUMNS.forEach(function (c) { el("th", {scope: "col"}, head, c[1]); });
    var tbody = el("tbody", {}, table);
    horizons.forEach(function (h) {
      var tr = el("tr", {class: "status-" + h.status}, tbody);
      HORIZON_COLUMNS.forEach(function (c) {
        var value = h[c[0]];
        if (c[0] === "time_s" && typeof value === "number") value = value.toFixed(4);
        el("td", {}, tr, value === undefined || value === null ? "" : value);
      });
    });
    drawChart();
  }

  /* A bar per horizon: the chosen measure, coloured by status. */
  function drawChart() {
    var box = $("horizon-chart"), measure = $("chart-measure").value;
    var label = $("chart-measure").selectedOptions[0].textContent;
    box.textContent = "";
    var rows = lastHorizons;
    if (!rows.length) return;
    var W = 640, H = 220, left = 64, right = 12, top = 14, bottom = 44;
    var most = Math.max.apply(null, rows.map(function (h) { return Number(h[measure]) || 0; }));
    if (!(most > 0)) most = 1;
    var svg = svgEl("svg", {viewBox: "0 0 " + W + " " + H, class: "bar-chart", role: "img",
      "aria-label": label + " per horizon"}, box);
    var plotW = W - left - right, plotH = H - top - bottom;
    var slot = plotW / rows.length, bar = Math.max(2, Math.min(48, slot * 0.7));
    [0, 0.5, 1].forEach(function (f) {
      var y = top + plotH * (1 - f);
      svgEl("line", {x1: left, x2: W - right, y1: y, y2: y, class: "grid"}, svg);
      var value = most * f;
      var text = measure === "time_s" ? value.toFixed(value < 0.1 ? 4 : 2) : String(Math.round(value));
      svgEl("text", {x: left - 6, y: y + 4, class: "tick", "text-anchor": "end"}, svg).textContent = text;
    });
    var every = Math.ceil(rows.length / 16);
    rows.forEach(function (h, i) {
      var value = Number(h[measure]) || 0, height = plotH * value / most;
      var x = left + slot * i + (slot - bar) / 2;
      var rect = svgEl("rect", {x: x, y: top + plotH - height, width: bar,
        height: Math.max(height, 0.5), class: "bar status-" + h.status}, svg);
      svgEl("title", {}, rect).textContent = "horizon " + h.horizon + ": " + h.status + ", " +
        label + " " + h[measure];
      if (i % every === 0) {
        svgEl("text", {x: x + bar / 2, y: H - bottom + 16, class: "tick",
          "text-anchor": "middle"}, svg).textContent = String(h.horizon);
      }
    });
    svgEl("text", {x: left + plotW / 2, y: H - 6, class: "axis", "text-anchor": "middle"}, svg)
      .textContent = "horizon (plan length tried): " + label +
        "; red refuted, green a plan, grey unknown";
  }

  $("chart-measure").addEventListener("change", drawChart);

  function showExplain(data) {
    var why = data.why_not_shorter, box = $("why");
    box.hidden = false;
    el("h3", {}, box, "Why not shorter?");
    if (!why) {
      el("p", {"data-testid": "why-text"}, box, "Nothing to explain: no minimal plan was " +
        "found (or the plan has no moves).");
    } else {
      var p = el("p", {"data-testid": "why-text"}, box);
      el("strong", {}, p, "No plan of " + plural(why.horizon, "move") + " (" + why.status +
        "): ");
      p.appendChild(document.createTextNode(why.reason));
      if (why.core && why.core.length) {
        var list = el("p", {class: "core"}, box, "Goal facts that cannot all hold: ");
        why.core.forEach(function (atom) { el("code", {}, list, atom); });
      }
    }
    var sections = data.sections || [];
    if (sections.length) {
      var body = $("sections-body");
      $("sections").hidden = false;
      el("p", {class: "note"}, body, "Encoding " + data.encoding +
        (data.extras && data.extras.length ? " (with " + data.extras.join(", ") + ")" : ""));
      sections.forEach(function (section) {
        el("h4", {}, body, section.name);
        if (section.intro) el("p", {}, body, section.intro);
        var list = el("ul", {class: "rules"}, body);
        section.rules.forEach(function (rule) {
          var li = el("li", {}, list);
          el("code", {}, li, rule.text);
          var where = " line " + rule.line + (rule.program ? ", " + rule.program : "");
          el("span", {class: "rule-where"}, li, where);
          if (rule.comment) el("div", {class: "rule-comment"}, li, rule.comment);
        });
      });
    }
  }

  function showGrade(report) {
    var verdict = $("verdict");
    el("span", {class: "badge " + (report.passed ? "good" : "bad"), "data-testid": "verdict-result"},
      verdict, report.passed ? "PASSED" : "FAILED");
    el("span", {class: "length"}, verdict, report.score.passed + " / " +
      plural(report.score.total, "instance") + " pass");
    $("proof").textContent = "Your encoding was run at every horizon up to the optimum " +
      "and compared with the reference.";
    var box = $("grade-report");
    box.hidden = false;
    (report.instances || []).forEach(function (grade) {
      var item = el("section", {class: "grade-item " + (grade.passed ? "passed" : "failed")}, box);
      el("h3", {}, item, (grade.passed ? "✓ pass" : "✗ fail") + (grade.optimum !== null
        ? " — optimum " + plural(grade.optimum, "move") : " — no plan within the checked range"));
      var answers = el("p", {class: "answers"}, item, "your answers by horizon " +
        "(red: not the reference's): ");
      Object.keys(grade.answers || {}).forEach(function (h) {
        var status = grade.answers[h];
        var expected = grade.optimum !== null && Number(h) >= grade.optimum ? "SAT" : "UNSAT";
        var right = status === expected;
        el("span", {class: "chip " + (right ? "right" : "wrong"),
          title: "horizon " + h + ": " + status + (right ? "" : ", the reference: " + expected)},
          answers, h + " " + status);
      });
      var list = el("ul", {class: "findings"}, item);
      (grade.findings || []).forEach(function (finding) {
        var li = el("li", {"data-testid": "finding"}, list);
        el("span", {class: "kind"}, li, finding.kind);
        li.appendChild(document.createTextNode(" " + finding.message));
        if (finding.board) el("pre", {class: "ascii-board"}, li, finding.board);
      });
    });
    if (report.warnings && report.warnings.length) {
      el("h3", {}, box, "clingo's warnings about the encoding");
      var warn = el("ul", {class: "warnings"}, box);
      report.warnings.forEach(function (w) { el("li", {}, warn, w); });
    }
  }

  /* ---------------------------------------------------------------------------------- */
  /* Play tab                                                                            */
  /* ---------------------------------------------------------------------------------- */

  var game = {
    puzzle: null,        // {pegs, disks, start, goal, graph}
    positions: [],       // positions[k]: the placement after k moves
    moves: [],           // moves[k - 1]: {disk, from, to}
    redo: [],
    pick: null,          // a peg
    refused: null,       // a peg, drawn red until the next click
    hintShown: null,     // the hint drawn on the board: {disk, from, to}
    hints: {}            // position key -> promise of {distance, move, proven} or {error}
  };

  function keyOf(placement) {
    return JSON.stringify(game.puzzle.pegs.map(function (p) { return placement[p] || []; }));
  }

  function current() { return game.positions[game.positions.length - 1]; }

  /* The hint for a position (asked once, then remembered). */
  function hintFor(placement) {
    var key = keyOf(placement);
    if (!game.hints[key] && reached(game.puzzle, placement)) {  // no need to ask
      game.hints[key] = {done: true,
        promise: Promise.resolve({distance: 0, move: null, proven: true})};
    }
    if (!game.hints[key]) {
      var text = factsText({pegs: game.puzzle.pegs, disks: game.puzzle.disks, start: placement,
        goal: game.puzzle.goal, graph: game.puzzle.graph, max_moves: null});
      var entry = {controller: new AbortController(), done: false};
      entry.promise = api("/api/hint", {instance: text, format: "lp", encoding: null,
        moves: null, timeout: HINT_SECONDS}, entry.controller.signal).then(function (answer) {
        entry.done = true;
        if (!answer.ok) return {error: answer.data.error};
        return answer.data;
      }, function (error) {
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
    var needed = {}, positions = game.positions;
    [positions[0], positions[positions.length - 2], current()].forEach(function (p) {
      if (p) needed[keyOf(p)] = true;
    });
    Object.keys(game.hints).forEach(function (key) {
      var entry = game.hints[key];
      if (!needed[key] && !entry.done) {
        entry.controller.abort();
        delete game.hints[key];
      }
    });
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
    Object.keys(game.hints).forEach(function (key) {
      if (!game.hints[key].done) game.hints[key].controller.abort();
    });
    game.hints = {};
    $("play-done").hidden = true;
    status("Click a peg to pick up its top disk, then click the peg it goes to.");
    drawGame();
    afterChange();
  }

  function status(text, kind) {
    var box = $("play-status");
    box.textContent = text;
    box.className = "play-status" + (kind ? " " + kind : "");
  }

  function drawGame() {
    var puzzle = game.puzzle;
    if (!puzzle) return;
    var hint = game.hintShown;
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
    var list = $("play-moves");
    list.textContent = "";
    game.moves.forEach(function (m) {
      el("li", {}, list, "disk " + m.disk + ": " + m.from + " → " + m.to);
    });
    list.scrollTop = list.scrollHeight;
  }

  function finished() { return reached(game.puzzle, current()); }

  function playClick(peg) {
    if (!game.puzzle) return;
    var state = current();
    game.refused = null;
    if (finished()) {
      status("Solved already: Undo to try again, or start a new game.", "good");
      drawGame();
      return;
    }
    if (game.pick === null) {
      var top = topDisk(state, peg);
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
    var from = game.pick, disk = topDisk(state, from), there = topDisk(state, peg);
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
      move({disk: disk, from: from, to: peg});
      game.redo = [];
      return;
    }
    drawGame();
  }

  function move(m) {
    var next = copy(current());
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
    var m = game.redo.pop(), keep = game.redo;
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

  /* After a move, undo, redo or a new game: the distance here, the verdict on the last move,
     and the end of the game. */
  function afterChange() {
    var positions = game.positions, here = current(), count = game.moves.length;
    var distance = $("play-distance"), verdict = $("play-verdict");
    distance.textContent = "computing…";
    verdict.textContent = count ? "computing…" : "–";
    verdict.className = "";
    $("play-hint").textContent = "";
    dropHints();
    var before = count ? hintFor(positions[count - 1]) : Promise.resolve(null);
    var after = hintFor(here);
    Promise.all([before, after]).then(function (found) {
      if (current() !== here) return;  // moved on meanwhile
      var was = found[0], now = found[1];
      distance.textContent = describeDistance(now);
      if (count && was && !was.error && !now.error && was.distance !== null &&
          now.distance !== null) {
        var kept = now.distance === was.distance - 1;
        var sure = was.proven && now.proven ? "" : " (bounds not proven)";
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
      hintFor(positions[0]).then(function (first) {
        if (current() !== here) return;
        var optimum = first.error || first.distance === null ? "unknown" : first.distance;
        var box = $("play-done");
        box.textContent = count
          ? "Solved in " + plural(count, "move") + "; the optimum from the start was " +
            optimum + "." + (optimum === count ? " Perfect!" : "")
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
    var here = current();
    $("play-hint").textContent = "Asking the engine…";
    var hint = await hintFor(here);
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
  $("restart").addEventListener("click", function () {
    if (game.puzzle) startGame(game.puzzle);
  });
  digitToPeg($("play-board"), function () { return game.puzzle; }, playClick);
  document.addEventListener("keydown", function (event) {
    if ($("panel-play").hidden || !(event.ctrlKey || event.metaKey)) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
    if (event.key === "z") { event.preventDefault(); undo(); }
    if (event.key === "y") { event.preventDefault(); redo(); }
  });

  function quickGame() {
    var pegs = Number($("new-pegs").value), disks = Number($("new-disks").value);
    var names = "abcdefghij".slice(0, pegs).split("");
    var tower = [];
    for (var d = 1; d <= disks; d++) tower.push(d);
    var start = {}, goal = {};
    start[names[0]] = tower.slice();
    goal[names[pegs - 1]] = tower.slice();
    startGame({pegs: names, disks: disks, start: start, goal: goal, graph: null});
  }

  $("new-game").addEventListener("click", quickGame);
  $("play-instance").addEventListener("click", async function () {
    var puzzle = await parseNow();
    if (!puzzle) {
      selectTab($("tab-solve"));
      runError("The instance has an error: fix it to play it.");
      return;
    }
    startGame(puzzle);
    selectTab($("tab-play"));
  });

  (function fillSelects() {
    for (var p = 3; p <= 6; p++) el("option", {value: String(p)}, $("new-pegs"), p);
    for (var d = 1; d <= 10; d++) el("option", {value: String(d)}, $("new-disks"), d);
    $("new-pegs").value = "3";
    $("new-disks").value = "3";
  })();

  /* ---------------------------------------------------------------------------------- */
  /* Start                                                                              */
  /* ---------------------------------------------------------------------------------- */

  var FIRST_EXAMPLE = "03-quickstart.lp";

  async function start() {
    setBusy(null);
    var connection = $("connection");
    try {
      var found = await Promise.all([api("/api/encodings"), api("/api/examples")]);
      if (!found[0].ok || !found[1].ok) throw new Error(found[0].data.error || found[1].data.error);
      solve.encodings = found[0].data.encodings;
      solve.examples = found[1].data.examples;
    } catch (error) {
      connection.textContent = "Cannot reach the hanoi-asp server: " + error.message;
      connection.classList.add("bad");
      return;
    }
    var select = $("encodings");
    var whole = el("optgroup", {label: "whole encodings"}, select);
    var exercises = el("optgroup", {label: "exercises (deliberately broken)"}, select);
    solve.encodings.forEach(function (e) {
      el("option", {value: e.name}, /^exercise/.test(e.title) ? exercises : whole,
        e.name + " — " + e.title);
    });
    var first = defaultEncoding();
    if (first) { select.value = first.name; showEncoding(first.name); }
    solve.examples.forEach(function (e) { el("option", {value: e.name}, examplesSelect, e.name); });
    var example = solve.examples.filter(function (e) { return e.name === FIRST_EXAMPLE; })[0] ||
      solve.examples[0];
    if (example) {
      examplesSelect.value = example.name;
      formatSelect.value = example.format || "lp";
      instance.setText(example.text);
    } else {
      instance.setText("peg(a;b;c).\ndisk(1..3).\ninit_on(1..3,a).\ngoal_on(1..3,c).\n");
    }
    var puzzle = await parseNow();
    if (puzzle) startGame(puzzle); else quickGame();
    document.body.setAttribute("data-ready", "true");
  }

  start();
})();
