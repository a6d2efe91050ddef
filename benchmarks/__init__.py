"""The benchmarks: each one a module run as ``python -m benchmarks.NAME`` from the
repository's root (``benchmarks/README.md`` lists them with their targets), sharing
:mod:`benchmarks.harness` for cases, peers, runs, statistics, machine, CSV, log and plot.
"""
