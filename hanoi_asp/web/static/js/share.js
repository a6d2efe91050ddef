/*
 * Share and keep the student's encoding: in the URL fragment (a share link, as the
 * potassco editor has: #encoding=NAME:TEXT, the text deflated and base64url-coded)
 * and in the browser's local storage (kept per page address, restored at the next
 * visit); "download" saves the editor's text as an .lp file.  Nothing leaves the
 * browser: the fragment is never sent to the server.
 */

const KEY = "hanoi-asp:encoding:" + location.pathname;
const SAVE_DELAY_MS = 400;

function toBase64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/* The fragment for an encoding: "z" + deflated, or "b" + plain UTF-8 where the browser
   has no CompressionStream. */
export async function encodeFragment(name, text) {
  const bytes = new TextEncoder().encode(text);
  const packed = typeof CompressionStream === "function"
    ? "z" + toBase64url(await through(new CompressionStream("deflate-raw"), bytes))
    : "b" + toBase64url(bytes);
  return "#encoding=" + encodeURIComponent(name) + ":" + packed;
}

/* {name, text} from a fragment made by encodeFragment, or null. */
export async function decodeFragment(hash) {
  const found = /^#encoding=([^:]*):([zb])([A-Za-z0-9_-]*)$/.exec(hash || "");
  if (!found) return null;
  try {
    const bytes = fromBase64url(found[3]);
    const raw = found[2] === "z" ? await through(new DecompressionStream("deflate-raw"), bytes) : bytes;
    return {name: decodeURIComponent(found[1]), text: new TextDecoder().decode(raw)};
  } catch (error) {
    return null;
  }
}

export function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    return kept && typeof kept.text === "string" && typeof kept.name === "string" ? kept : null;
  } catch (error) {
    return null;
  }
}

let timer = null;

/* Keep the editor's encoding (soon: typing does not write on every key). */
export function keep(name, text) {
  clearTimeout(timer);
  timer = setTimeout(() => {
    try { localStorage.setItem(KEY, JSON.stringify({name, text})); } catch (error) { /* full or off */ }
  }, SAVE_DELAY_MS);
}

/* Save `text` as a file called `name` (a Blob in the page: no request is made). */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
