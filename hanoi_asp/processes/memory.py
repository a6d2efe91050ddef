"""The one way a child's memory is capped: its address space (clingo has no limit of
its own), set inside the child for the work's block and lifted after it, so the answer
can still be sent back.

>>> with memory_cap(None):
...     sum(range(10))
45

Running out inside the block is :class:`OverMemory` (Python's MemoryError, or clingo's
``std::bad_alloc`` as a RuntimeError).  A child that dies of it instead, where clingo
cannot raise (a thread's allocation), ends with one of :data:`OUT_OF_MEMORY_EXITS`.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator
from contextlib import contextmanager

OUT_OF_MEMORY_EXITS = (127, -6, -9, -11)
"""How a child over its memory cap may die when it cannot raise MemoryError: exit 127
(glibc cannot allocate a clingo thread's local data), SIGABRT (``std::bad_alloc`` in a
clingo thread), SIGKILL, SIGSEGV."""
CLINGO_OUT_OF_MEMORY = ("bad_alloc", "Resource temporarily unavailable")
"""What clingo's RuntimeError says when the address space runs out: an allocation
failed, or a thread's stack could not be mapped (EAGAIN from starting its solve thread:
seen on 4 pegs with 20 disks under a 32 MiB cap)."""


class OverMemory(Exception):
    """Work ran out of the address space :func:`memory_cap` gave it."""


@contextmanager
def memory_cap(limit: int | None, *, added: bool = False) -> Iterator[None]:
    """Cap this process's address space at ``limit`` bytes for the block (None: no
    cap); with ``added``, at what it holds now plus ``limit`` (a warm worker holds what
    earlier work left mapped: each job may add the same, whatever ran before).  Only the
    soft limit is set, never above a hard limit the user set (``prlimit --as``), and it
    is lifted again after the block."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if limit is not None:
        held = (address_space() or 0) if added else 0
        cap_address_space(limit + held)
    try:
        yield
    except (MemoryError, RuntimeError) as error:
        if not isinstance(error, MemoryError) and not _out_of_memory(str(error)):
            raise
        raise OverMemory(f"over the memory limit of {limit} bytes") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def cap_address_space(limit: int) -> None:
    """Set this process's soft address-space limit to ``limit`` bytes, never above a
    hard limit the user set (``prlimit --as``): what every cap here comes down to."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    capped = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (capped, hard))


def _out_of_memory(message: str) -> bool:
    return any(sign in message for sign in CLINGO_OUT_OF_MEMORY)


def address_space() -> int | None:
    """This process's address space now (Linux's VmSize), or None."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def default_memory_limit(share: int = 1) -> int:
    """A safe share of the machine: 80% of its memory, split ``share`` ways."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(total * 0.8) // max(1, share)
