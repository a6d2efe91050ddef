"""Teaching mode: ``explain`` (the encoding and the search, step by step) and
``grade`` (a student's encoding against the reference).  In the wheel this folder
also holds the shipped teaching set of instances."""
