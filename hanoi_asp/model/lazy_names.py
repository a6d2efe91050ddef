"""A package's names imported when first used (PEP 562's module ``__getattr__``): a
command imports the parts of a layer it runs, not the whole layer."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """``package``'s ``__getattr__``: each name of ``homes`` is imported from its module
    (``package.HOME``) when first asked for, then kept in the package like any other."""
    namespace = sys.modules[package].__dict__

    def attribute(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    return attribute
