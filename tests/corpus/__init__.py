"""The corpus both languages answer: the cases that define the puzzle's rules, as data
(``facts.json``, ``plans.json``, ``bounds.json``, ``grades.json``), run by the Python
tests (``tests/*/test_corpus_*.py``) and by the page's ES modules in chromium
(``tests/web/test_corpus_browser.py``).  See ``README.md`` beside this file."""
