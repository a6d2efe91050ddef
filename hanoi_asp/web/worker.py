"""What the server of the web app's job workers imports once, before it forks them
(its preload): the jobs, and so the engine, and numpy, which the engine imports only
when a puzzle needs its pattern tables, beam or A*.

Imported here, numpy's pages are shared by every worker copy-on-write.  Left to the
engine, each worker that ran a hard solve imported it after its fork and held its own
copy, about 10 MiB per worker (``docs/decisions/server-memory.md``).  The app's own
process never imports this module: it needs no numpy.
"""

import os

# One BLAS thread, as the batch's workers have it: a thread's buffers and malloc arena
# in the workers' server would be address space every capped worker inherits.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy  # noqa: F401

import hanoi_asp.web.jobs  # noqa: F401
