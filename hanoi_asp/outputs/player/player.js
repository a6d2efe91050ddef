/*
 * HanoiPlayer: draws a Towers of Hanoi puzzle in SVG and animates a plan, with controls.
 * Plain JavaScript, no library, no network: `hanoi-asp render --html` inlines this file
 * (and player.css) into one page, and the web app serves the same files.
 *
 *   const player = HanoiPlayer.mount(container, data, options)
 *
 *   container  an element; the player fills it (start and goal boards, the animated
 *              board, controls) and owns what is inside it
 *   data       {pegs: ["a", "b", "c"], disks: 3,             disk 1 is the largest
 *               start: {"a": [1, 2, 3]},                     peg -> its disks, every disk once
 *               goal: {"c": [1, 3]},                         disks left out may end anywhere
 *               plan: [{disk: 3, from: "a", to: "c"}, ...],  `solve --json`'s "plan" fits
 *               graph: [["a", "b"], ...],                   optional: the moves allowed, where
 *               graph_name: "cyclic"}                       not every move is (shown, named)
 *   options    {speed: moves per second (default 2), ends: false to leave out the small
 *              start and goal boards, keys: "page" to take the keys from the whole page
 *              (a page with one player: the arrows work before any click)}
 *
 *   player.play(), player.pause(), player.toggle()
 *   player.step(k)      k moves forward (default 1; negative: back), and pause
 *   player.goto(k)      the state after k moves (0: the start), and pause
 *   player.setSpeed(s)  moves per second, 0.25 to 20 (the slider's range, logarithmic)
 *   player.state()      {step, total, playing, speed, move}: move is plan[step - 1] or null
 *   player.on("change", fn) -> off   fn(player.state()) after every change; the container
 *                       also gets a "hanoi:change" CustomEvent with the same detail
 *   player.destroy()    stop and empty the container
 *
 *   HanoiPlayer.board(data, placement, options) -> a new <svg> of one still board
 *                       (placement: peg -> disks, disks left out are not drawn;
 *                       options.free: disk numbers drawn grey; options.label: aria-label)
 *
 * Keys while the player has focus (or anywhere on the page, with keys: "page"): space
 * play/pause, arrows step, Home/End first/last.
 * The geometry is the Python pictures' (hanoi_asp/outputs/drawing.py) up to 7 disks;
 * past that the disks' widths grow by less, so that tall boards stay readable.
 */
(function (global) {
  "use strict";

  var NS = "http://www.w3.org/2000/svg";
  var DISK = 18, STEP = 16, MARGIN = 12, CAPTION = 10, FOOT = 28, FONT = 12, EM = 0.64;
  var MIN_SPEED = 0.25, MAX_SPEED = 20;
  var WIDE_DISKS = 7, MIN_STEP = 6;

  function svgEl(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function htmlEl(name, attrs, parent, text) {
    var node = document.createElement(name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  /* Sizes from the text they hold, so the smallest disk's label (the widest) fits.  Past
     WIDE_DISKS disks each disk is only a little wider than the next: a 12-disk board on 4 pegs is
     then about twice as wide as high instead of three times, so scaled to the width of
     its box its disks are half as tall again. */
  function geometry(data) {
    var n = data.disks;
    var step = n > WIDE_DISKS ? Math.max(MIN_STEP, STEP * (WIDE_DISKS - 1) / (n - 1)) : STEP;
    var smallest = Math.max(20, String(n).length * EM * FONT + 8);
    var longest = Math.max.apply(null, data.pegs.map(function (p) { return p.length; }));
    var column = Math.max(smallest + (n - 1) * step, longest * EM * 13) + STEP;
    var width = data.pegs.length * column + 2 * MARGIN;
    var ground = CAPTION + (n + 1) * DISK;
    return {
      n: n, smallest: smallest, column: column, width: width, ground: ground,
      height: ground + FOOT, top: ground - (n + 0.5) * DISK,
      centre: function (peg) { return MARGIN + column * peg + column / 2; },
      diskWidth: function (disk) { return smallest + (n - disk) * step; }
    };
  }

  /* peg index of every disk (index disk - 1); -1 for a disk the placement leaves out */
  function stateOf(data, placement) {
    var state = [];
    for (var d = 0; d < data.disks; d++) state.push(-1);
    Object.keys(placement).forEach(function (peg) {
      placement[peg].forEach(function (disk) { state[disk - 1] = data.pegs.indexOf(peg); });
    });
    return state;
  }

  function statesOf(data) {
    var states = [stateOf(data, data.start)];
    data.plan.forEach(function (move) {
      var next = states[states.length - 1].slice();
      next[move.disk - 1] = data.pegs.indexOf(move.to);
      states.push(next);
    });
    return states;
  }

  /* Where each disk sits: {disk: {x, y}} (x its centre, y its top). */
  function positions(geo, state) {
    var heights = {}, at = {};
    for (var disk = 1; disk <= state.length; disk++) {  // largest first: bottom up
      var peg = state[disk - 1];
      if (peg < 0) continue;
      heights[peg] = (heights[peg] || 0) + 1;
      at[disk] = {x: geo.centre(peg), y: geo.ground - heights[peg] * DISK};
    }
    return at;
  }

  /* An <svg> with ground, pegs and peg names; the disks are added by the caller. */
  function frame(data, geo, label) {
    var svg = svgEl("svg", {
      viewBox: "0 0 " + geo.width + " " + geo.height, class: "hanoi-board",
      role: "img", "aria-label": label
    });
    svgEl("rect", {x: MARGIN / 2, y: geo.ground, width: geo.width - MARGIN, height: 3,
      class: "hanoi-ground"}, svg);
    data.pegs.forEach(function (name, index) {
      var x = geo.centre(index);
      svgEl("rect", {x: x - 2, y: geo.top, width: 4, height: geo.ground - geo.top,
        class: "hanoi-peg", "data-peg": name}, svg);
      svgEl("text", {x: x, y: geo.ground + 19, class: "hanoi-peg-name"}, svg).textContent = name;
    });
    return svg;
  }

  function disk(svg, geo, number) {
    var width = geo.diskWidth(number);
    var group = svgEl("g", {class: "hanoi-disk", "data-disk": number}, svg);
    svgEl("rect", {x: -width / 2, y: 1, width: width, height: DISK - 2, rx: 2}, group);
    svgEl("text", {x: 0, y: DISK / 2 + FONT * 0.36}, group).textContent = String(number);
    return group;
  }

  function place(group, point) {
    group.setAttribute("transform", "translate(" + point.x + "," + point.y + ")");
  }

  function board(data, placement, options) {
    var geo = geometry(data), free = options && options.free;
    var state = stateOf(data, placement);
    var svg = frame(data, geo, (options && options.label) || "board");
    var at = positions(geo, state);
    Object.keys(at).forEach(function (number) {
      var group = disk(svg, geo, Number(number));
      if (free && free.indexOf(Number(number)) >= 0) group.classList.add("hanoi-free");
      group.setAttribute("data-peg", data.pegs[state[number - 1]]);
      place(group, at[number]);
    });
    return svg;
  }

  /* The goal drawn as a state: its disks on their pegs, the others greyed where the plan
     leaves them ("anywhere"). */
  function goalBoard(data, last) {
    var goal = stateOf(data, data.goal), placement = {}, free = [];
    goal.forEach(function (peg, index) {
      if (peg < 0) { peg = last[index]; free.push(index + 1); }
      var name = data.pegs[peg];
      (placement[name] = placement[name] || []).push(index + 1);
    });
    var svg = board(data, placement, {free: free, label: "goal"});
    return {svg: svg, partial: free.length > 0};
  }

  function figure(parent, svg, caption) {
    var fig = htmlEl("figure", {class: "hanoi-end"}, parent);
    fig.appendChild(svg);
    htmlEl("figcaption", {}, fig, caption);
    return fig;
  }

  function mount(container, data, options) {
    options = options || {};
    var geo = geometry(data), states = statesOf(data), total = data.plan.length;
    var step = 0, playing = false, speed = options.speed || 2, timer = null, motion = null;
    var listeners = [];
    var keySource = options.keys === "page" ? global.document : container;

    container.textContent = "";
    container.classList.add("hanoi-player");
    if (!container.hasAttribute("tabindex")) container.setAttribute("tabindex", "0");
    if (options.ends !== false) {
      var ends = htmlEl("div", {class: "hanoi-ends"}, container);
      figure(ends, board(data, data.start, {label: "start"}), "start");
      var goal = goalBoard(data, states[total]);
      figure(ends, goal.svg, goal.partial ? "goal (grey: anywhere)" : "goal");
    }
    if (data.graph) {
      var name = data.graph_name && data.graph_name !== "custom" ? " (" + data.graph_name + ")" : "";
      htmlEl("p", {class: "hanoi-graph"}, container, "moves allowed" + name + ": " +
        data.graph.map(function (edge) { return edge[0] + " \u2192 " + edge[1]; }).join(", ") +
        "; no other move");
    }
    var svg = frame(data, geo, "the plan, animated");
    svg.classList.add("hanoi-main");
    container.appendChild(svg);
    var disks = {};
    for (var d = 1; d <= data.disks; d++) disks[d] = disk(svg, geo, d);

    var bar = htmlEl("div", {class: "hanoi-controls"}, container);
    function button(name, title, text) {
      return htmlEl("button", {type: "button", class: "hanoi-" + name, title: title}, bar, text);
    }
    var back = button("back", "step back (left arrow)", "\u25C0 back");
    var playButton = button("play", "play / pause (space)", "play \u25B6");
    var forward = button("forward", "step forward (right arrow)", "forward \u25B6");
    var counter = htmlEl("output", {class: "hanoi-counter", "aria-live": "polite"}, bar);
    var speedBox = htmlEl("label", {class: "hanoi-speed"}, bar, "speed ");
    var slider = htmlEl("input", {type: "range", min: "0", max: "100", step: "1"}, speedBox);
    var speedText = htmlEl("span", {}, speedBox);
    var moveText = htmlEl("p", {class: "hanoi-move", "aria-live": "polite"}, container);

    /* The slider is logarithmic: 0..100 is MIN_SPEED..MAX_SPEED moves per second. */
    var RANGE = MAX_SPEED / MIN_SPEED;
    function toSlider(s) { return Math.round(100 * Math.log(s / MIN_SPEED) / Math.log(RANGE)); }
    function fromSlider(v) { return MIN_SPEED * Math.pow(RANGE, v / 100); }

    function state() {
      return {step: step, total: total, playing: playing, speed: speed,
        move: step > 0 ? data.plan[step - 1] : null};
    }

    function emit() {
      var now = state();
      listeners.slice().forEach(function (fn) { fn(now); });
      container.dispatchEvent(new CustomEvent("hanoi:change", {detail: now}));
    }

    function settle() {
      if (motion) { global.cancelAnimationFrame(motion); motion = null; }
      var at = positions(geo, states[step]);
      for (var number = 1; number <= data.disks; number++) {
        place(disks[number], at[number]);
        disks[number].setAttribute("data-peg", data.pegs[states[step][number - 1]]);
        var moved = step > 0 && data.plan[step - 1].disk === number;
        disks[number].classList.toggle("hanoi-moved", moved);
      }
    }

    /* One disk up above the pegs, across, and down: the way a hand moves it. */
    function glide(number, from, to) {
      var lift = geo.top - DISK, ms = Math.min(600, 700 / speed);
      var points = [from, {x: from.x, y: lift}, {x: to.x, y: lift}, to];
      var lengths = [], all = 0;
      for (var i = 1; i < points.length; i++) {
        var a = points[i - 1], b = points[i];
        var length = Math.abs(b.x - a.x) + Math.abs(b.y - a.y);
        lengths.push(length); all += length;
      }
      var begin = null;
      place(disks[number], from);
      function frameAt(time) {
        if (begin === null) begin = time;
        var left = Math.min(1, (time - begin) / ms) * all, k = 0;
        while (k < lengths.length - 1 && left > lengths[k]) { left -= lengths[k]; k++; }
        var t = lengths[k] ? Math.min(1, left / lengths[k]) : 1;
        place(disks[number], {x: points[k].x + (points[k + 1].x - points[k].x) * t,
          y: points[k].y + (points[k + 1].y - points[k].y) * t});
        motion = t < 1 || k < lengths.length - 1 ? global.requestAnimationFrame(frameAt) : null;
      }
      motion = global.requestAnimationFrame(frameAt);
    }

    function show(next, animate) {
      next = Math.max(0, Math.min(total, next));
      var before = step;
      step = next;
      settle();
      if (animate && Math.abs(next - before) === 1 && !reducedMotion()) {
        var number = data.plan[Math.min(next, before)].disk;
        glide(number, positions(geo, states[before])[number], positions(geo, states[next])[number]);
      }
      refresh();
    }

    /* The counter, the move in words, the buttons; then tell the listeners. */
    function refresh() {
      counter.textContent = "step " + step + " / " + total;
      var move = state().move;
      moveText.textContent = move
        ? step + ": disk " + move.disk + " " + move.from + " \u2192 " + move.to
        : total ? "start: press play or step forward" : "the start already meets the goal";
      back.disabled = step === 0;
      forward.disabled = step === total;
      playButton.textContent = playing ? "pause \u275A\u275A" : "play \u25B6";
      playButton.setAttribute("aria-pressed", String(playing));
      emit();
    }

    function reducedMotion() {
      return global.matchMedia && global.matchMedia("(prefers-reduced-motion: reduce)").matches;
    }

    function tick() {
      timer = null;
      if (!playing) return;
      playing = step + 1 < total;
      show(step + 1, true);
      if (playing) timer = global.setTimeout(tick, 1000 / speed);
    }

    function stopTimer() { if (timer !== null) { global.clearTimeout(timer); timer = null; } }

    var player = {
      play: function () {
        if (playing || total === 0) return;
        if (step >= total) show(0, false);
        playing = true;
        refresh();
        timer = global.setTimeout(tick, Math.min(300, 1000 / speed));
      },
      pause: function () {
        stopTimer();
        if (playing) { playing = false; refresh(); }
      },
      toggle: function () { if (playing) player.pause(); else player.play(); },
      step: function (k) {
        stopTimer(); playing = false;
        show(step + (k === undefined ? 1 : k), true);
      },
      goto: function (k) { stopTimer(); playing = false; show(k, false); },
      setSpeed: function (s) {
        speed = Math.max(MIN_SPEED, Math.min(MAX_SPEED, Number(s) || 2));
        slider.value = String(toSlider(speed));
        speedText.textContent = (speed < 10 ? speed.toFixed(1) : Math.round(speed)) + " moves/s";
        emit();
      },
      state: state,
      on: function (name, fn) {
        if (name !== "change") throw new Error("HanoiPlayer: only 'change' is emitted");
        listeners.push(fn);
        return function () { listeners = listeners.filter(function (f) { return f !== fn; }); };
      },
      destroy: function () {
        stopTimer(); playing = false;
        if (motion) global.cancelAnimationFrame(motion);
        keySource.removeEventListener("keydown", onKey);
        container.textContent = "";
        listeners = [];
      }
    };

    function onKey(event) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      var tag = event.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      var keys = {" ": player.toggle, ArrowLeft: function () { player.step(-1); },
        ArrowRight: function () { player.step(1); }, Home: function () { player.goto(0); },
        End: function () { player.goto(total); }};
      if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
    }

    back.addEventListener("click", function () { player.step(-1); });
    forward.addEventListener("click", function () { player.step(1); });
    playButton.addEventListener("click", player.toggle);
    slider.addEventListener("input", function () {
      player.setSpeed(fromSlider(Number(slider.value)));
    });
    keySource.addEventListener("keydown", onKey);

    player.setSpeed(speed);
    show(0, false);
    return player;
  }

  global.HanoiPlayer = {mount: mount, board: board, MIN_SPEED: MIN_SPEED, MAX_SPEED: MAX_SPEED};
})(typeof window !== "undefined" ? window : this);
