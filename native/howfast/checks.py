"""Bad input gets a clear exception naming the argument, never an AttributeError or a
KeyError from deep inside.

``checked(namespace)`` wraps every public function of a module (a subject's
``experiments``, ``crosscheck`` and ``report``, the card, machines, bundles...) so that

* an argument annotated as a polars ``DataFrame``, a ``Case`` or a mapping, an ``int`` or
  a ``float``, a class of the package (``ResultSet``, ``store.ResultSet``) or a list of
  one, of the wrong type raises TypeError naming the function and the argument;
* a case (a mapping) that lacks a parameter the function reads raises ValueError naming
  the missing key, instead of the KeyError from wherever it was first read.

A function that checks more (a range, a choice) does so itself, with ValueError.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

#: annotation text -> (test, what the argument must be)
_KINDS: list[tuple[str, Callable[[Any], bool], str]] = [
    ("DataFrame", lambda v: isinstance(v, pl.DataFrame), "a polars DataFrame"),
    ("Case", lambda v: isinstance(v, Mapping), "a case (a mapping of parameters)"),
    ("Mapping", lambda v: isinstance(v, Mapping), "a mapping"),
    ("dict", lambda v: isinstance(v, Mapping), "a mapping"),
    ("int", lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    ("float", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number"),
    ("str", lambda v: isinstance(v, str), "text"),
    ("bool", lambda v: isinstance(v, bool), "True or False"),
    ("bytes", lambda v: isinstance(v, (bytes, bytearray, memoryview)), "bytes"),
    ("Path", lambda v: isinstance(v, Path), "a pathlib.Path"),
    ("PathLike", lambda v: isinstance(v, os.PathLike), "a path"),
    ("ndarray", lambda v: isinstance(v, np.ndarray), "a numpy array"),
    ("Series", lambda v: isinstance(v, pl.Series), "a polars Series"),
    ("Expr", lambda v: isinstance(v, pl.Expr), "a polars expression"),
    ("Callable", callable, "a function"),
]


_SEQUENCE = re.compile(r"(?:list|tuple|Sequence)\[([\w.]+)(?:, \.\.\.)?\]")
#: element kinds a sequence is checked for (besides the package's classes)
_ELEMENTS = ("str", "DataFrame", "Case", "Mapping", "dict")


def _kind(
    annotation: object, only: tuple[str, ...] | None = None, namespace: dict[str, Any] | None = None
) -> tuple[Callable[[Any], bool], str, bool] | None:
    """The check for an annotation (as text, since modules use postponed annotations)."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    if not text or text == "inspect._empty":
        return None
    many = _SEQUENCE.fullmatch(text)  # a sequence of a class it knows, of text or of tables: each element checked
    if many and only is None:
        one = _kind(many.group(1), _ELEMENTS, namespace)
        if one is not None:
            test, what, _ = one
            return (lambda v: isinstance(v, (list, tuple)) and all(test(x) for x in v)), f"a list of {what}", False
    parts = [p.strip() for p in re.sub(r"\[.*\]", "", text).split("|")]  # the top-level union only
    optional = "None" in parts
    parts = [p for p in parts if p != "None"]
    if len(parts) > 1:  # a union: any of its kinds, when it knows them all
        kinds = [_kind(p, only, namespace) for p in parts]
        if any(k is None for k in kinds):
            return None  # a kind it does not know: the function decides
        tests = [k[0] for k in kinds if k is not None]
        what = " or ".join(k[1] for k in kinds if k is not None)
        return (lambda v: any(test(v) for test in tests)), what, optional
    if len(parts) != 1:
        return None
    dotted = parts[0].split("[", 1)[0]
    name = dotted.rsplit(".", 1)[-1]
    for key, test, what in _KINDS:
        if name == key and (only is None or key in only):
            return test, what, optional
    own: Any = namespace or {}  # a class it knows, by its name or through a module (store.ResultSet)
    for step in dotted.split("."):
        own = own.get(step) if isinstance(own, dict) else getattr(own, step, None)
    if isinstance(own, type) and own.__module__ not in ("typing", "builtins", "collections.abc"):  # a class it knows
        return (lambda v, cls=own: isinstance(v, cls)), f"a {name}", optional
    return None


def check(
    fn: Callable[..., Any], only: tuple[str, ...] | None = None, namespace: dict[str, Any] | None = None
) -> Callable[..., Any]:
    """`fn` with its arguments checked against its annotations (see the module); `only`
    limits the checks to these kinds (e.g. ``("DataFrame",)``)."""
    signature = inspect.signature(fn)
    checks = {name: k for name, p in signature.parameters.items() if (k := _kind(p.annotation, only, namespace))}
    # *args and **kwargs: the annotation is each value's
    many = {name for name, p in signature.parameters.items() if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}

    @functools.wraps(fn)
    def checked_call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{fn.__name__}(): {error}") from None
        cases = []
        for name, value in bound.arguments.items():
            if name in checks:
                test, what, optional = checks[name]
                values = (value.values() if isinstance(value, dict) else value) if name in many else (value,)
                for one in values:
                    if not (test(one) or (optional and one is None)):
                        raise TypeError(f"{fn.__name__}(): {name} must be {what}, got {type(one).__name__} {one!r:.60}")
            if isinstance(value, Mapping) and name not in many:  # a case, not **kwargs
                cases.append(value)
        try:
            return fn(*args, **kwargs)
        except KeyError as error:
            key = error.args[0] if error.args else None
            if any(isinstance(c, Mapping) and key not in c for c in cases) and isinstance(key, str):
                raise ValueError(f"{fn.__name__}(): the case has no {key!r} parameter") from None
            raise

    return checked_call


def checked(namespace: dict[str, Any], only: tuple[str, ...] | None = None) -> None:
    """Wrap, in place, every public function defined in the module of `namespace`."""
    if not isinstance(namespace, dict) or not isinstance(namespace.get("__name__"), str):
        raise TypeError("checked(): namespace must be a module's globals() (a dict with its __name__)")
    if only is not None and not (isinstance(only, tuple) and all(isinstance(k, str) for k in only)):
        raise TypeError(f"checked(): only must be a tuple of kind names, got {only!r:.60}")
    module = namespace["__name__"]
    for name, value in list(namespace.items()):
        if not name.startswith("_") and inspect.isfunction(value) and value.__module__ == module:
            namespace[name] = check(value, only, namespace)
