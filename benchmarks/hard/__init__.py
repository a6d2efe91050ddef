"""Hard cases, our engine side by side with peers in the same run (issue #14).

    python -m benchmarks.hard --dry-run                 # what would run, nothing runs
    python -m benchmarks.hard                           # everything: many hours
    python -m benchmarks.hard --families 'random4-*' --methods asp fd-lmcut --runs 3
    python -m benchmarks.hard --families smoke4-n5-full smoke3-n6 --runs 1 --timeout 20

Methods (``--methods``, default all):

* ``asp``: our default engine, ``python -m hanoi_asp solve FILE --json --timeout T``;
* ``astar``: the same with ``--method astar`` (an ERROR row where the CLI refuses it);
* ``baseline``: the engine at ``--baseline-rev`` (default ``771bb6e``, before this issue),
  from a ``git worktree`` in a temporary folder, run with ``PYTHONPATH`` pointing there;
* ``fd-blind``, ``fd-lmcut``, ``fd-ms``: Fast Downward, optimal A* on our PDDL
  translation (:mod:`benchmarks.harness.peers.fast_downward`, ``.pddl``);
* ``symk``: SymK's symbolic bidirectional search ``sym_bd()`` on the same PDDL
  (:mod:`benchmarks.harness.peers.symk`, PyPI ``up-symk``);
* ``competition``: the ASP Competition's own encoding
  (:mod:`benchmarks.harness.peers.competition`),
  on the competition instances only.

Families (``--families``, names or shell patterns; instances from fixed seeds, written
once as ``.lp`` files to ``--instances``): random puzzles from
:func:`hanoi_asp.inputs.generate.random_puzzle` on 4 pegs (10, 12, 14 disks) and 5 pegs
(10, 12 disks), each with full and with partial goals; on 3 pegs random full goals (11,
12 disks); whole towers (3 pegs 10 disks, 4 pegs 12 and 13, 5 pegs 12); the 20
competition instances.  ``smoke*`` families (tiny) run only when named.

How it measures: every run is a fresh process group
(:func:`benchmarks.harness.processes.run_tree`),
killed at ``--timeout`` (Fast Downward, which cannot stop itself) or at ``--timeout`` +
``--grace`` (ours and the competition encoding stop themselves at ``--timeout``), or when
the tree's resident memory passes ``--memory-limit`` (MEMOUT).  ``seconds`` is the wall
time of the whole process: Python's start-up and imports included for ours and the
competition encoding, the driver, translator and search for Fast Downward.  Our checkouts
are compiled to bytecode first, as ``pip install`` does
(:func:`~benchmarks.harness.peers.ours.compile_tree`).  A run that
proves its answer after ``--timeout`` counts as a TIMEOUT (its length still takes part in
the cross-check).  Peak memory is that of the whole tree.  Every plan is replayed by
:func:`hanoi_asp.model.plan.replay`; every method that proves an optimum must agree on
its length per case (a disagreement is printed and marked ``DISAGREE`` in the CSV), and
our bounds must bracket the agreed optimum (``BOUND CONFLICT``).  Runs interleave: per
case, run 1 of every method, then run 2, ...; the order of methods rotates from one run
to the next, so machine noise and caches hit all alike.  Unless ``--no-skip``, a method
whose first run of a case timed out skips that case's later runs, and a method that timed
out on every case of a family skips the larger families of the same series.

Writes ``results/hard.csv`` (one row per run; ``--out`` names another), ``results/hard.log``
(the log: the machine, its load and the command, then the table: per case
and method the median and worst time, ``ours / peer`` ratios paired run by run, median
and worst) and ``results/hard.png`` (per family, the median time per case, one marker per
method, log scale, timeouts drawn at the limit).
"""
