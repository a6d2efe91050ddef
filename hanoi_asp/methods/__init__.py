"""The classic algorithms as reference methods beside the ASP planner.

``recursive`` (3 pegs, whole tower), ``frame_stewart`` (whole tower, k >= 3 pegs)
and ``bfs`` (any instance) are plain Python that shares nothing with the encodings;
:mod:`hanoi_asp.methods.run` turns their moves into a :class:`~hanoi_asp.search.Result`
after the same simulator replay as every ASP plan.
"""
