"""A package's names imported when first used (PEP 562's module ``__getattr__``): a
command imports the parts of a layer it runs, not the whole layer."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module


def lazy_names(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``package``'s ``__getattr__`` and ``__dir__``: each name of ``homes`` is imported
    from its module (``package.HOME``) when first asked for, then kept in the package
    like any other; ``dir()`` lists them all, used yet or not."""
    namespace = sys.modules[package].__dict__

    def attribute(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    def names() -> list[str]:
        return sorted(homes)

    return attribute, names
