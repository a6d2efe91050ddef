"""What the benchmarks share, one module per idea:

* :mod:`~benchmarks.harness.paths`: the checkout's folders, and ``results/NAME.csv``;
* :mod:`~benchmarks.harness.cases`: whole towers, random puzzles from fixed seeds, the
  shipped instance files, generated instances written once;
* :mod:`~benchmarks.harness.peers`: the planners run side by side (ours from this
  checkout or a baseline revision, Fast Downward, SymK, the competition's encoding);
* :mod:`~benchmarks.harness.processes`: fresh processes with hard limits (a whole
  command's wall time and peak memory, or a function timed inside a spawned process);
* :mod:`~benchmarks.harness.stats`: median and worst of repeated runs, paired ratios;
* :mod:`~benchmarks.harness.machine`: the machine, its load, the commit, and the CPU
  other processes took during a run;
* :mod:`~benchmarks.harness.output`: the log, the CSV written as runs finish, plots.
"""
