/*
 * clingo in the page: one Web Worker (clingo-worker.js) running clingo compiled to
 * WebAssembly, one run at a time (runs queue), each with a time limit.  A run ends
 * when clingo answers, when its time is up, or when its signal aborts (the page's
 * Stop): then the worker is terminated at once and a fresh one takes the next run.
 *
 *   const answer = await clingo.run(program, args, {signal, seconds, onCall})
 *   answer: {status, result (clingo's --outf=2 JSON), errors (its messages),
 *            stopped: null | "timeout" | "stop", seconds}
 */

const WORKER = new URL("./clingo-worker.js", import.meta.url);

class Clingo {
  constructor() {
    this.worker = null;
    this.queue = Promise.resolve();
    this.next = 1;
  }

  spawn() {
    if (!this.worker) this.worker = new Worker(WORKER, {type: "module"});
    return this.worker;
  }

  /* Start the worker and load the WebAssembly now, before the first real run. */
  warm() {
    return this.run("", "--outf=2 1", {seconds: 60});
  }

  run(program, args, options = {}) {
    const result = this.queue.then(() => this.once(program, args, options));
    this.queue = result.catch(() => null);
    return result;
  }

  once(program, args, {signal, seconds = 30, onCall} = {}) {
    return new Promise((resolve) => {
      const started = performance.now();
      const elapsed = () => (performance.now() - started) / 1000;
      if (signal && signal.aborted) {
        resolve({status: null, result: null, errors: "", stopped: "stop", seconds: 0});
        return;
      }
      const id = this.next++;
      const worker = this.spawn();
      let timer = null;
      const finish = (answer) => {
        clearTimeout(timer);
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        if (signal) signal.removeEventListener("abort", onAbort);
        resolve({...answer, seconds: elapsed()});
      };
      const end = (stopped) => {
        worker.terminate();
        if (this.worker === worker) this.worker = null;
        finish({status: null, result: null, errors: "", stopped});
      };
      const onMessage = (event) => {
        const data = event.data;
        if (data.id !== id) return;
        if (data.type === "call") {
          if (onCall) onCall(data.call, elapsed());
          return;
        }
        finish({status: data.status, result: data.result, errors: data.errors, stopped: null});
      };
      const onError = (event) => {
        worker.terminate();
        if (this.worker === worker) this.worker = null;
        finish({status: -1, result: null, stopped: null,
          errors: "clingo could not start in this page: " + (event.message || "worker error")});
      };
      const onAbort = () => end("stop");
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      if (signal) signal.addEventListener("abort", onAbort);
      timer = setTimeout(() => end("timeout"), Math.max(0.05, seconds) * 1000);
      worker.postMessage({id, program, args});
    });
  }
}

export const clingo = new Clingo();
