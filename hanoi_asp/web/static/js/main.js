/*
 * The playground page, for `hanoi-asp serve` and for the static site `hanoi-asp site`
 * alike: plain ES modules, no build step, no library, no request beyond the folder the
 * page came from.  Which back end answers is decided once (api.js); everything else is
 * the same code.
 *
 *   dom.js, domain.js, search.js, facts.js, asp.js     helpers and the puzzle's rules
 *   api.js, backend-server.js, backend-page.js          the two back ends
 *   clingo.js, clingo-worker.js, horizons.js            clingo in a Web Worker
 *   grading.js, random-puzzles.js, shrink.js,
 *   why-rejected.js                                     grading in the page
 *   board.js, editor.js, solve.js, results.js,
 *   grade-report.js, play.js, share.js, course.js       the page itself
 *   opened-from-file.js (a classic script)              says to serve a page opened
 *                                                       from a file
 */

import {$} from "./dom.js";
import {connect} from "./api.js";
import {courseApi} from "./course.js";
import {setupPlay} from "./play.js";
import {setupSolve} from "./solve.js";
import {decodeFragment, download, encodeFragment, keep, stored} from "./share.js";

const tabs = [$("tab-solve"), $("tab-play")];

function selectTab(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
}

tabs.forEach((tab, index) => {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (event) => {
    const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
    if (!step) return;
    const next = tabs[(index + step + tabs.length) % tabs.length];
    selectTab(next);
    next.focus();
  });
});

let resolveReady, rejectReady;
const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
const connected = connect();
// defined now, before the page's load event: `await hanoiAsp.ready` then waits for the rest
window.hanoiAsp = courseApi(connected, ready);
ready.catch(() => {});  // a page that cannot start says so on its own

async function start() {
  const connection = $("connection");
  let api;
  try {
    api = await connected;
  } catch (error) {
    connection.textContent = error.message;
    connection.classList.add("bad");
    rejectReady(error);
    return;
  }
  document.body.setAttribute("data-backend", api.kind);
  if (api.kind === "page") {
    const {clingo} = await import("./clingo.js");
    clingo.warm();  // load the WebAssembly while the page sets itself up
    connection.textContent = "runs in this page: clingo compiled to WebAssembly";
    if (api.site.title) {
      document.title = api.site.title;
      $("site-title").textContent = api.site.title.replace(/^hanoi-asp\s+/, "");
    }
  }
  const solve = setupSolve(api, {onEncoding: (name, text) => keep(name, text)});
  const play = setupPlay(api, {parseNow: solve.parseNow, selectTab, runError: solve.runError});
  const shared = await decodeFragment(location.hash);
  let puzzle;
  try {
    puzzle = await solve.load(shared || stored());
  } catch (error) {
    connection.textContent = "Cannot reach the hanoi-asp server: " + error.message;
    connection.classList.add("bad");
    rejectReady(error);
    return;
  }
  $("share").addEventListener("click", async () => {
    const fragment = await encodeFragment(solve.encodingName(), solve.encodingText());
    history.replaceState(null, "", fragment);
    const link = $("share-link");
    link.value = location.href;
    link.hidden = false;
    link.select();
    try { await navigator.clipboard.writeText(location.href); } catch (ignored) { /* shown */ }
  });
  $("download").addEventListener("click", () => {
    const name = solve.encodingName() || "encoding.lp";
    download(/^encoding\.lp$|^$/.test(name) ? "my-encoding.lp" : "my-" + name, solve.encodingText());
  });
  if (puzzle) play.startGame(puzzle); else play.quickGame();
  document.body.setAttribute("data-ready", "true");
  resolveReady();
}

start();
