/* Editors: a textarea with a line-number gutter, an error line mark, and marked rules. */

import {el} from "./dom.js";

/* What every editor's textarea is: code, not prose. */
const CODE_TEXT = {spellcheck: "false", wrap: "off", autocapitalize: "off", autocomplete: "off"};

/* An editor's textarea and its error line, made here for every editor alike: the page
   writes only the editor's box with its data-name (`instance`: the ids instance-text and
   instance-error) and data-label (what a screen reader calls the text). */
function texts(root) {
  const name = root.dataset.name;
  const textarea = el("textarea", {id: name + "-text", "data-testid": name + "-text",
    "aria-label": root.dataset.label, "aria-describedby": name + "-error"}, root);
  const errorBox = el("p", {id: name + "-error", class: "editor-error",
    "data-testid": name + "-error", role: "alert"});
  errorBox.hidden = true;
  root.after(errorBox);
  return {textarea, errorBox};
}

/* The parts of an editor around its textarea, so that every editor is built the same:
   the gutter of line numbers beside it, and the error line's mark over it. */
function build(root, textarea) {
  const gutter = el("div", {class: "gutter", "aria-hidden": "true"});
  const area = el("div", {class: "text-area"});
  const mark = el("div", {class: "line-mark"}, area);
  mark.hidden = true;
  root.insertBefore(gutter, textarea);
  root.insertBefore(area, textarea);
  area.appendChild(textarea);
  for (const [key, value] of Object.entries(CODE_TEXT)) textarea.setAttribute(key, value);
  return {gutter, mark};
}

/*
 * Editor(root) -> {textarea, text(), setText(text), showError(message, line),
 * clearError(), goToLine(line), markLines(lines, label), clearMarks()}
 * markLines draws the given lines as "this rule" (a counterexample's failing rule).
 */
export function Editor(root) {
  const {textarea, errorBox} = texts(root);
  const {gutter, mark} = build(root, textarea);
  const inner = el("div", {class: "gutter-lines"}, gutter);
  let lines = 0, errorLine = null, marked = [];

  const lineHeight = () => parseFloat(getComputedStyle(textarea).lineHeight) || 24;
  const padTop = () => parseFloat(getComputedStyle(textarea).paddingTop) || 0;

  function renumber() {
    const count = textarea.value.split("\n").length;
    if (count !== lines) {
      lines = count;
      inner.textContent = "";
      for (let i = 1; i <= count; i++) el("div", {class: "gutter-line"}, inner, i);
      markGutter();
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
    Array.from(inner.children).forEach((node, index) => {
      node.classList.toggle("is-error", index + 1 === errorLine);
      node.classList.toggle("is-marked", marked.includes(index + 1));
    });
  }

  function showError(message, line) {
    errorLine = line && line >= 1 ? line : null;
    markGutter();
    mark.hidden = errorLine === null;
    root.classList.add("has-error");
    errorBox.textContent = "";
    if (errorLine !== null) {
      const line0 = errorLine;
      const go = el("button", {type: "button", class: "line-link",
        "data-testid": root.id + "-error-line", "aria-label": "go to line " + line0},
      errorBox, "line " + line0);
      go.addEventListener("click", () => goToLine(line0));
      errorBox.appendChild(document.createTextNode(" "));
    }
    el("span", {class: "error-text"}, errorBox, message);
    errorBox.hidden = false;
    if (errorLine !== null) reveal(errorLine);
    sync();
  }

  /* Scroll the line into view (a third from the top) if it is not in view now. */
  function reveal(line) {
    const top = (line - 1) * lineHeight(), seen = textarea.scrollTop;
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
    const parts = textarea.value.split("\n");
    let start = 0;
    for (let i = 0; i < line - 1 && i < parts.length; i++) start += parts[i].length + 1;
    const end = start + (parts[line - 1] || "").length;
    textarea.focus();
    textarea.setSelectionRange(start, end);
    reveal(line);
    sync();
  }

  /* The lines of rules to look at, marked in the gutter until the text changes. */
  function markLines(numbers) {
    marked = numbers.slice();
    markGutter();
    if (marked.length) reveal(marked[0]);
    sync();
  }

  function clearMarks() {
    if (!marked.length) return;
    marked = [];
    markGutter();
  }

  function setText(text) {
    textarea.value = text;
    textarea.scrollTop = 0;
    clearMarks();
    renumber();
  }

  textarea.addEventListener("input", () => { clearMarks(); renumber(); });
  textarea.addEventListener("scroll", sync);
  textarea.addEventListener("keydown", (event) => {  // a tab key types two spaces
    if (event.key !== "Tab" || event.shiftKey || event.ctrlKey || event.altKey) return;
    if (textarea.selectionStart !== textarea.selectionEnd) return;  // leave: focus moves
    event.preventDefault();
    textarea.setRangeText("  ", textarea.selectionStart, textarea.selectionEnd, "end");
    textarea.dispatchEvent(new Event("input"));
  });
  if (window.ResizeObserver) new ResizeObserver(sync).observe(textarea);
  renumber();

  return {
    textarea, text: () => textarea.value, setText, showError, clearError, goToLine,
    markLines, clearMarks
  };
}
