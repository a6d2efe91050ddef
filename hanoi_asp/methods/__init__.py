"""The classic algorithms as reference methods beside the ASP planner: plain algorithms.

``recursive`` (3 pegs, whole tower), ``frame_stewart`` (whole tower, k >= 3 pegs)
and ``bfs`` (any instance) are plain Python that shares nothing with the encodings
and builds only on :mod:`hanoi_asp.model`;
:mod:`hanoi_asp.engine.reference` turns their moves into a result after the same
simulator replay as every ASP plan.
"""
