/*
 * The page's API, one interface over two back ends: `hanoi-asp serve`'s JSON API
 * (backend-server.js), or the page itself (backend-page.js: clingo compiled to
 * WebAssembly in a Web Worker), chosen once at load from static/site.json: the package
 * ships it as {"backend": "server"}; `hanoi-asp site` writes the site document in its
 * place (version 1), which selects the page's own back end.  Both modes find the file,
 * so neither logs a failed request.
 *
 *   const api = await connect()
 *   api.kind                                  "server" | "page"
 *   await api.call(name, body, signal)        {ok, status, data}, data the server's JSON
 *     name: encodings, examples, parse, solve, explain, grade, hint
 */

import {serverBackend} from "./backend-server.js";

export async function connect() {
  let site = null;
  try {
    const response = await fetch("static/site.json", {headers: {"Accept": "application/json"}});
    if (response.ok) site = await response.json();
  } catch (error) {
    if (location.protocol === "file:") {
      throw new Error("this page was opened from a file: the browser lets a page from a file " +
        "fetch nothing, not even its own static/site.json. Serve the folder (python -m http.server) " +
        "and open it from http://localhost:8000/");
    }
  }
  if (site && site.version === 1) {
    const {pageBackend} = await import("./backend-page.js");
    return pageBackend(site);
  }
  return serverBackend();
}

/* Where an error points: {where: "instance" | "encoding" | null, line}. */
export function errorPlace(data) {
  return {where: data.where || null, line: data.line || null};
}
