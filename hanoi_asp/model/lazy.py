"""Imports made when first used: a module (for the heavy ones, numpy's, that most runs of
a command never touch), and a package's names (its ``__getattr__``: a command imports
the parts of a layer it runs, not the whole layer).

>>> from hanoi_asp.model.lazy import lazy_module
>>> json = lazy_module("json")
>>> json.dumps([1])
'[1]'

Import it under ``if TYPE_CHECKING:`` as usual, so type checkers and the layer contracts
see the real module, and bind the name with :func:`lazy_module` otherwise.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module ``name``, executed only when one of its attributes is first read (at
    once if it is already loaded)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:  # as an import binds it: ``package.child`` names the module
        setattr(sys.modules[parent], child, module)
    return module


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
