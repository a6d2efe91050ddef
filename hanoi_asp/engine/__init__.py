"""The engine: sound lower bounds, the shipped encodings, clingo's drivers, the upward
search and the mirror phase, and the reference methods' runner.

Its entry point is :func:`hanoi_asp.engine.solve.solve`; its policy (which encodings,
threads, heuristics) lives in one place, :mod:`hanoi_asp.engine.policy`.
"""
