"""Inputs: instance files of every format -> a Puzzle, and a Puzzle -> ASP facts.

Everything from outside is data: texts are scanned and parsed, never run
(:mod:`hanoi_asp.inputs.asp_text`).
"""
