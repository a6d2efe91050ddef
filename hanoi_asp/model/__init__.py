"""The model: the puzzle, plans and their simulator, options, results, errors, limits.

Plain data and rules, no solver and no I/O: every other layer builds on it.
"""
