/* Boards: HanoiPlayer.board (player.js) with one click target per peg. */

import {svgEl} from "./dom.js";
import {topDisk} from "./domain.js";

/*
 * Draw `placement` into `box`; a click on a peg's column (or Enter / Space on it, or
 * the digit of its position while the board has focus) calls onPeg(peg).
 * marks: {picked: peg, hintFrom: peg, hintTo: peg, refused: peg}; free: disks drawn grey.
 */
export function drawBoard(box, puzzle, placement, options = {}) {
  const marks = options.marks || {};
  const svg = window.HanoiPlayer.board({pegs: puzzle.pegs, disks: puzzle.disks}, placement,
    {free: options.free, label: options.label});
  const height = svg.viewBox.baseVal.height, width = svg.viewBox.baseVal.width;
  const centres = Array.from(svg.querySelectorAll(".hanoi-peg"), (rect) =>
    Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2);
  const column = centres.length > 1 ? centres[1] - centres[0] : width;
  for (const name of ["picked", "hintFrom"]) {
    const peg = marks[name];
    if (peg === undefined || peg === null) continue;
    const top = topDisk(placement, peg);
    const disk = top === null ? null : svg.querySelector('.hanoi-disk[data-disk="' + top + '"]');
    if (disk) disk.classList.add(name === "picked" ? "is-picked" : "is-hint");
  }
  if (options.onPeg) {
    const under = svg.firstChild;  // targets go under the drawing, in the pegs' order
    puzzle.pegs.forEach((peg, index) => {
      const top = topDisk(placement, peg);
      const classes = ["peg-target"];
      if (marks.picked === peg) classes.push("is-picked");
      if (marks.hintTo === peg) classes.push("is-hint-target");
      if (marks.hintFrom === peg) classes.push("is-hint-source");
      if (marks.refused === peg) classes.push("is-refused");
      const label = (options.label || "board") + ": peg " + peg + ", " +
        (top === null ? "empty" : "top disk " + top) + (marks.picked === peg ? ", picked" : "");
      const hit = svgEl("rect", {
        x: centres[index] - column / 2, y: 0, width: column, height,
        class: classes.join(" "), "data-peg": peg, "data-testid": "peg-" + peg,
        role: "button", tabindex: "0", "aria-label": label
      });
      svg.insertBefore(hit, under);  // the drawing lets clicks through (app.css)
      hit.addEventListener("click", () => options.onPeg(peg));
      hit.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          options.onPeg(peg);
        }
      });
    });
  }
  const focused = box.querySelector(".peg-target:focus");
  const focusPeg = focused ? focused.getAttribute("data-peg") : null;
  box.textContent = "";
  box.appendChild(svg);
  if (focusPeg !== null) {
    const again = Array.from(svg.querySelectorAll(".peg-target"))
      .find((r) => r.getAttribute("data-peg") === focusPeg);
    if (again) again.focus();
  }
  return svg;
}

/* The digit keys 1-9 pick the pegs of the board in `box` (puzzle() gives its puzzle). */
export function digitToPeg(box, puzzle, onPeg) {
  box.addEventListener("keydown", (event) => {
    if (!/^[1-9]$/.test(event.key)) return;
    const current = puzzle();
    const peg = current ? current.pegs[Number(event.key) - 1] : undefined;
    if (peg !== undefined) { event.preventDefault(); onPeg(peg); }
  });
}
