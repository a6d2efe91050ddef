/* Small DOM helpers shared by the page's modules. */

const SVG_NS = "http://www.w3.org/2000/svg";

export function $(id) { return document.getElementById(id); }

/* A new element with attributes, appended to `parent`, with `text` as its content. */
export function el(name, attrs, parent, text) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (parent) parent.appendChild(node);
  return node;
}

export function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function copy(value) { return JSON.parse(JSON.stringify(value)); }

export function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
