/*
 * The page's JavaScript API for course pages and tests, on either back end:
 *
 *   await hanoiAsp.ready                               the page has loaded
 *   hanoiAsp.backend                                   "server" | "page"
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
 */

const RANDOM = 30;

export function courseApi(api, ready) {
  async function call(name, body) {
    const answer = await api.call(name, body);
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
    if (given === null && api.kind === "server") {  // the server grades one instance first
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

  return {backend: api.kind, ready, solve, grade};
}
