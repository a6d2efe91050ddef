"""The shipped teaching instances: the set ``grade`` runs when given no instances."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from hanoi_asp.engine import shipped


def teaching_set() -> list[str]:
    """The shipped teaching instances (inside the wheel, or the checkout's folder)."""
    return sorted(str(p) for p in teaching_folder().iterdir() if p.name.endswith(".lp"))


def teaching_folder() -> Traversable:
    """Where the teaching set lies: ``hanoi_asp/teaching`` in the wheel (beside this
    module), else the checkout's ``instances/teaching``."""
    here = resources.files("hanoi_asp.teaching")
    if any(p.name.endswith(".lp") for p in here.iterdir()):
        return here
    return shipped("instances/teaching", "instances/teaching")
