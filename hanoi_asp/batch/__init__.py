"""Batch runs: folders of instance files, each solved in its own worker process,
results appended as JSON lines (:mod:`hanoi_asp.batch.run`)."""

WORKER = "hanoi_asp.batch.worker"
"""What a worker's server imports once: the worker module, and so the engine."""
