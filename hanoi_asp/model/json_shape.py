"""A JSON object's shape, declared once as a ``TypedDict`` beside the type it is made from,
and the object made from it.

>>> from hanoi_asp.model.plan import Move, MoveJSON
>>> dump(MoveJSON, Move(step=1, disk=4, source="a", target="b"))  # "from": From("source")
{'step': 1, 'disk': 4, 'from': 'a', 'to': 'b'}

A shape is what ``--json`` prints (:func:`dump` reads every key from the object, in the
shape's order, and makes nothing else) and what the web API's OpenAPI page documents
(pydantic reads the same ``TypedDict``: its keys, their types, and the docstring under
each key), so the two cannot differ.  Each key's value is the source's attribute of the
key's name, or where :class:`From` says.  A key whose type is a shape, or a shape or
None, is that attribute made into its object (from its attributes, or a tuple's items
in order); a list of shapes is made from a sequence of objects, and a list's None is
``[]``.  The shapes are ``typing_extensions.TypedDict`` (pydantic reads
``typing.TypedDict`` only from Python 3.12).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from pydantic import ConfigDict, with_config
from typing_extensions import is_typeddict

Maker = Callable[[object], dict[str, Any]]
T = TypeVar("T", bound=type)


@dataclass(frozen=True)
class From:
    """Where a key's value comes from, when it is not the attribute of the key's name as
    it is: ``attribute`` (dotted: ``"result.horizons"``), and ``convert`` applied to it
    (its answer is the value as printed)."""

    attribute: str | None = None
    convert: Callable[[Any], Any] | None = None


def dump(shape: type, source: object, **given: Any) -> dict[str, Any]:
    """``source`` as the JSON object ``shape`` describes; ``given`` keys as they are
    (what the source does not hold, e.g. the name the command line gave the instance)."""
    if not given:
        return _maker(shape)(source)
    made = _maker(shape, frozenset(given))(source)
    return {key: given[key] if key in given else made[key] for key in _hints(shape)}


@cache
def _hints(shape: type) -> dict[str, Any]:
    module = sys.modules[shape.__module__]
    return get_type_hints(shape, vars(module), include_extras=True)


@cache
def _maker(shape: type, given: frozenset[str] = frozenset()) -> Maker:
    """How ``shape`` is made from an object, worked out once: every attribute read at
    once (``attrgetter``), then the values that are made into something."""
    keys: list[str] = []
    paths: list[str] = []
    converts: list[tuple[int, Callable[[Any], Any]]] = []
    for key, hint in _hints(shape).items():
        if key in given:
            continue
        found = next(
            (note for note in getattr(hint, "__metadata__", ()) if isinstance(note, From)), From()
        )
        convert = found.convert or _made(_bare(hint))
        if convert is not None:
            converts.append((len(keys), convert))
        keys.append(key)
        paths.append(found.attribute or key)
    read = attrgetter(*paths)
    single = len(paths) == 1

    def make(source: object) -> dict[str, Any]:
        values = [read(source)] if single else read(source)
        if converts:
            values = list(values)
            for index, convert in converts:
                values[index] = convert(values[index])
        return dict(zip(keys, values, strict=False))  # as many: both from the shape

    return make


def _bare(hint: Any) -> Any:
    """The type without its ``Annotated`` notes and without ``| None``."""
    if get_origin(hint) is not None and hasattr(hint, "__metadata__"):
        hint = get_args(hint)[0]
    if get_origin(hint) in (Union, types.UnionType):
        kept = [arg for arg in get_args(hint) if arg is not type(None)]
        hint = kept[0] if len(kept) == 1 else hint
    return hint


def _made(hint: Any) -> Callable[[Any], Any] | None:
    """How a value of type ``hint`` is printed, when not as it is: a shape made from its
    object or a tuple's items in order (None stays None), a list (from any sequence,
    None the empty list) of shapes made from objects, or of plain values."""
    if is_typeddict(hint):
        return _shaped(hint)
    if get_origin(hint) is list:
        item = _bare(get_args(hint)[0])
        if is_typeddict(item):
            make = _maker(item)
            return lambda values: [make(value) for value in values or ()]
        return lambda values: list(values or ())
    return None


def _shaped(shape: type) -> Callable[[Any], dict[str, Any] | None]:
    keys, make = tuple(_hints(shape)), _maker(shape)

    def shaped(value: Any) -> dict[str, Any] | None:
        if value is None:
            return None
        return dict(zip(keys, value, strict=True)) if isinstance(value, tuple) else make(value)

    return shaped


def shape(declared: T) -> T:
    """Declare a ``TypedDict`` a JSON shape: pydantic documents each key with the
    docstring under it, and allows keys it does not know (version 1 of the JSON gains
    keys and never loses one)."""
    return with_config(ConfigDict(use_attribute_docstrings=True, extra="allow"))(declared)
