"""The engine's shape (issue #46): its modules' sizes and the import graph among them,
for this checkout or another (a ``git worktree`` of an older revision).

    python -m benchmarks.import_graph [TREE] [--edges]

Printed: how many modules and lines, every module over 250 lines, how many imports
join two modules of ``hanoi_asp.engine`` (``--edges``: each of them), which of our
other packages the engine imports, and the engine's most imported modules.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

from benchmarks.harness.paths import ROOT

LONGEST = 250


def _name(path: Path, root: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def graph(root: Path) -> tuple[dict[str, int], set[tuple[str, str]]]:
    """Each engine module's lines, and every (importer, imported) among our modules."""
    sizes: dict[str, int] = {}
    edges: set[tuple[str, str]] = set()
    for path in sorted((root / "hanoi_asp" / "engine").rglob("*.py")):
        module, text = _name(path, root), path.read_text(encoding="utf-8")
        sizes[module] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hanoi_asp"):
                edges.add((module, str(node.module)))
    return sizes, edges


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.import_graph", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("tree", nargs="?", type=Path, default=ROOT)
    parser.add_argument("--edges", action="store_true", help="print every import edge")
    args = parser.parse_args(argv)
    sizes, edges = graph(args.tree)
    engine = "hanoi_asp.engine."
    inner = sorted((a, b) for a, b in edges if b.startswith(engine))
    outer = sorted({b.split(".")[1] for a, b in edges if not b.startswith(engine)} - {"engine"})
    long = ", ".join(f"{m.removeprefix(engine)} {n}" for m, n in sizes.items() if n > LONGEST)
    print(f"{len(sizes)} modules, {sum(sizes.values())} lines; over {LONGEST}: {long or 'none'}")
    print(f"{len(inner)} imports between engine modules; other packages: {', '.join(outer)}")
    most = Counter(b.removeprefix(engine) for _, b in inner).most_common(6)
    print("most imported: " + ", ".join(f"{m} {n}" for m, n in most))
    if args.edges:
        for a, b in inner:
            print(f"  {a.removeprefix(engine)} -> {b.removeprefix(engine)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
