"""Batch runs: folders of instance files, each solved in its own worker process,
results appended as JSON lines (:mod:`hanoi_asp.batch.run`)."""
