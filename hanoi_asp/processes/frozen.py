"""A forkserver's last preload: what its preloads imported is frozen out of the garbage
collector's reach (:func:`gc.freeze`), so that those objects' pages stay shared with
every worker it forks.

A worker's collections would otherwise visit every object it inherited and write into
each one's header, and so copy each of their pages into the worker: the modules the
server imported once would be paid again by every worker that collects.  Imported
anywhere but in a forkserver, this module does nothing.
"""

import gc

from hanoi_asp.processes.guard import imported_by_a_forkserver

if imported_by_a_forkserver():
    gc.freeze()
