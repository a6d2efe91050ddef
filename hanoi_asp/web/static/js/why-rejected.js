/*
 * Why does a student's encoding reject a legal plan?  Which of its rules say no, as
 * hanoi_asp/teaching/why_rejected.py asks clingo: the reference plan is fixed, every
 * integrity constraint of the (one-shot) encoding is relaxed (asp.js relaxConstraints:
 * `:- body.` becomes `__why_broken(i,(X,Y)) :- body.`), and clingo minimises first the
 * plan's moves the encoding cannot make (a missing derivation; the earliest step first,
 * so the first named is the first the encoding cannot make after the plan's earlier
 * moves), then the constraints broken.  The answer names each broken constraint by its line and the step and disk
 * where it fails.  Nothing of the student's program runs but as ASP: #script and
 * #include were refused before.
 */

import {BROKEN, isIncremental, relaxConstraints} from "./asp.js";
import {clingo} from "./clingo.js";
import {factsText, pegTerm} from "./domain.js";
import {parseSymbol, showSymbol} from "./facts.js";

const SHOWN_TEXT = 72;

function short(rule) {
  const text = rule.text.length <= SHOWN_TEXT ? rule.text : rule.text.slice(0, SHOWN_TEXT - 3) + "...";
  return rule.file + ":" + rule.line + ": '" + text + "'";
}

/* Which of a one-shot encoding's rules reject the reference `plan`: {reason, rules} or
   null (an incremental encoding is not analysed, as on the command line). */
export async function whyRejected(encoding, puzzle, plan, {seconds = 10, signal} = {}) {
  if (isIncremental(encoding.text)) return null;
  const relaxed = relaxConstraints(encoding.text);
  const wanted = plan.map((m) => "__why_plan(" + m.disk + "," + pegTerm(m.to) + "," + m.step + ").").join(" ");
  const program = relaxed.text + "\n#program base.\n" + factsText(puzzle, {moves: false}) +
    "moves(" + plan.length + ").\n" + wanted + "\n" +
    "__why_missing(T) :- __why_plan(D,P,T), not move(D,P,T).\n" +
    "__why_missing(T) :- move(D,P,T), not __why_plan(D,P,T), T = 1.." + plan.length + ".\n" +
    // an earlier step outweighs every later one: the first missing step is the first
    // the encoding cannot make after the plan's earlier moves (why_rejected.py's rule)
    ":~ __why_missing(T), P = " + (30 + plan.length) + " - T. [1@P,T]\n" +
    ":~ " + BROKEN + "(I,V). [1@20,I,V]\n" +
    "#show __why_missing/1. #show " + BROKEN + "/2.\n";
  const answer = await clingo.run(program, "--outf=2 --opt-mode=opt 0", {seconds, signal});
  if (answer.stopped === "stop") throw new DOMException("stopped", "AbortError");
  if (!answer.result || !answer.result.Call) return null;
  const witnesses = answer.result.Call.flatMap((c) => c.Witnesses || []);
  if (!witnesses.length) return null;
  const atoms = witnesses[witnesses.length - 1].Value.map(parseSymbol).filter(Boolean);
  const rule = (r) => ({file: encoding.name, line: r.line, text: r.text});
  const missing = atoms.filter((a) => a.name === "__why_missing").map((a) => a.args[0].value).sort((a, b) => a - b);
  if (missing.length) {
    if (!relaxed.moveRules.length) return null;
    const step = missing[0], move = plan[step - 1];
    return {reason: short(rule(relaxed.moveRules[0])) + " cannot make the reference plan's move at step " +
      step + ": move(" + move.disk + "," + pegTerm(move.to) + "," + step + "), disk " + move.disk +
      " onto " + move.to + " (no answer has it, even with every integrity constraint relaxed)",
    rules: relaxed.moveRules.map(rule)};
  }
  const fired = new Map();
  for (const atom of atoms) {
    if (atom.name !== BROKEN || atom.args.length !== 2) continue;
    const index = atom.args[0].value;
    if (!fired.has(index)) fired.set(index, []);
    fired.get(index).push(atom.args[1].args);
  }
  if (!fired.size) return null;
  const stepOf = (variables, values) => {
    const k = variables.indexOf("T");
    return k >= 0 && values[k] && values[k].type === "num" ? values[k].value : Infinity;
  };
  const ranked = [...fired.keys()].sort((a, b) => {
    const va = relaxed.constraints[a].variables, vb = relaxed.constraints[b].variables;
    const sa = Math.min(...fired.get(a).map((v) => stepOf(va, v)));
    const sb = Math.min(...fired.get(b).map((v) => stepOf(vb, v)));
    return sa - sb || a - b;
  });
  const parts = ranked.map((index) => {
    const constraint = relaxed.constraints[index];
    const bindings = fired.get(index).slice().sort((a, b) =>
      stepOf(constraint.variables, a) - stepOf(constraint.variables, b));
    const more = bindings.length > 1 ? " (and " + (bindings.length - 1) + " more)" : "";
    return short(rule(constraint)) + " fails " + where(constraint.variables, bindings[0]) + more;
  });
  return {reason: parts.join("; "), rules: ranked.map((i) => rule(relaxed.constraints[i]))};
}

/* `at step 41 for disk 3` when the rule calls them T and D, else the bindings. */
function where(variables, values) {
  const bound = new Map(variables.map((name, k) => [name, values[k] ? showSymbol(values[k]) : "?"]));
  if (bound.has("T") || bound.has("D")) {
    const parts = [];
    if (bound.has("T")) { parts.push("at step " + bound.get("T")); bound.delete("T"); }
    if (bound.has("D")) { parts.push("for disk " + bound.get("D")); bound.delete("D"); }
    const rest = [...bound].map(([k, v]) => k + "=" + v).join(", ");
    return parts.join(" ") + (rest ? " (" + rest + ")" : "");
  }
  if (bound.size) return "with " + [...bound].map(([k, v]) => k + "=" + v).join(", ");
  return "(it has no variables: it fails outright)";
}
