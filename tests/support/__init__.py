"""What the tests share and pytest does not collect: the checkout's paths and files
(:mod:`support.files`), independent references (:mod:`support.reference`: a
breadth-first search and known counts, sharing no code with hanoi_asp), puzzles
(:mod:`support.towers`, :mod:`support.strategies` for hypothesis), garbled-input tokens
(:mod:`support.fuzz_tokens`) and seeded encoding mistakes (:mod:`support.grade_mutants`,
with the correct encodings in other styles in ``grade_encodings/``).

The root ``tests/conftest.py`` puts ``tests/`` on ``sys.path``: tests import these as
``from support.reference import bfs_distance``."""
