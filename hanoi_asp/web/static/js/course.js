/*
 * The page's JavaScript API for course pages and tests, on either back end:
 *
 *   await hanoiAsp.ready                               the page has loaded (window.hanoiAsp
 *                                                      is there before the page's load
 *                                                      event; ready rejects only when no
 *                                                      back end can be reached)
 *   hanoiAsp.backend                                   "server" | "page" (null until ready)
 *   await hanoiAsp.solve({instance, encoding, horizon, bound, timeout})
 *     -> {result, length, plan}: result in clingo's words (OPTIMUM FOUND, SATISFIABLE,
 *        UNSATISFIABLE, UNKNOWN), plan as `solve --json`'s ([{step, disk, from, to}]);
 *        horizon: exactly that many moves, else the minimal plan (the upward search);
 *        encoding: the text (default: the engine's incremental.lp); rejects with an
 *        Error (its .data: the API's error object) on bad input or a refused plan
 *   await hanoiAsp.grade({encoding, instance, random, seed, timeout})
 *     -> {score, total, findings, counterexample, report}: findings as grade --json's,
 *        each with its instance's name; by default the teaching set and 30 random
 *        puzzles of up to 6 disks (random: 0 for the teaching set alone)
 *   await hanoiAsp.check({instance, plan, timeout})
 *     -> check --json's object: the plan (text as check reads it, or solve --json's
 *        list of moves) legal or not, the goal reached or not, optimal or not
 */

const RANDOM = 30;

/* The API at once, before the back end is known: `connected` is the promise of it
   (api.js's connect), `ready` the page's. */
export function courseApi(connected, ready) {
  let api = null;
  connected.then((found) => { api = found; }, () => {});

  async function call(name, body) {
    const answer = await (await connected).call(name, body);
    if (!answer.ok) {
      const error = new Error(answer.data.error || "refused (" + answer.status + ")");
      error.data = answer.data;
      throw error;
    }
    return answer.data;
  }

  async function solve({instance, encoding = null, horizon = null, bound = "auto", timeout = 30} = {}) {
    await ready;
    const data = await call("solve", {instance, format: "lp", encoding, moves: horizon, bound, timeout});
    return {result: data.result, length: data.length, plan: data.plan};
  }

  async function grade({encoding, instance = null, random = RANDOM, seed = 0, timeout = 30} = {}) {
    await ready;
    let given = instance, extra = false;
    if (given === null && (await connected).kind === "server") {  // the server grades one instance first
      const examples = await call("examples");
      given = examples.examples[0].text;
      extra = true;
    }
    const report = await call("grade", {instance: given, format: "lp", encoding, timeout, random, seed});
    const instances = extra ? report.instances.slice(1) : report.instances;
    const findings = instances.flatMap((g) => g.findings.map((f) => ({instance: g.instance, ...f})));
    return {score: instances.filter((g) => g.passed).length, total: instances.length, findings,
      counterexample: report.counterexample || null, report: {...report, instances}};
  }

  /* check --json's object for `plan` (text in any of check's formats, or solve --json's
     list of moves) on `instance`. */
  async function check({instance, plan, timeout = 10} = {}) {
    await ready;
    const text = typeof plan === "string" ? plan : JSON.stringify(plan);
    return call("check", {instance, format: "lp", plan: text, timeout});
  }

  return {get backend() { return api ? api.kind : null; }, ready, solve, grade, check};
}
