/* The server's back end: the JSON API of `hanoi-asp serve` (hanoi_asp/web/app.py),
   asked with fetch.  Every call answers {ok, status, data}; a network failure or an
   aborted signal rejects, as fetch does. */

const GET = new Set(["encodings", "examples"]);

export function serverBackend() {
  async function call(name, body, signal) {
    const init = {headers: {"Accept": "application/json"}, signal};
    if (!GET.has(name)) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body || {});
    }
    const response = await fetch("api/" + name, init);
    let data = null;
    try { data = await response.json(); } catch (ignored) { data = null; }
    if (!data || typeof data !== "object") {
      data = {error: "the server answered " + response.status + " " + response.statusText};
    }
    return {ok: response.ok, status: response.status, data};
  }
  return {kind: "server", call};
}
