"""The generated schema data of the built-in kinds (``build_backend/gen_builtin_schemas.py`` writes it).

This is the one place the core reads files: the package's own immutable data, through
``importlib.resources``, as importing a module reads its source. Each file is read at most once per process
(``functools.cache``); an answer never changes, so the pure rules above it stay pure in effect.
Layout: see the generator's docstring.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["load_docs", "load_gotypes", "load_index", "load_package"]


def _read(name: str) -> Any:
    data = resources.files(__name__).joinpath(name).read_bytes()
    return json.loads(gzip.decompress(data))


@cache
def load_index() -> dict[str, Any]:
    """``index.json.gz``: releases, per-release definition variants, kinds and group-versions."""
    out: dict[str, Any] = _read("index.json.gz")
    return out


@cache
def load_package(package: str) -> dict[str, list[dict[str, Any]]]:
    """``<package>.json.gz``: ``{definition name: [schema variant, ...]}``; ``{}`` for an unknown package."""
    try:
        out: dict[str, list[dict[str, Any]]] = _read(f"{package}.json.gz")
    except FileNotFoundError:
        return {}
    return out


@cache
def load_docs(package: str) -> dict[str, list[dict[str, str]]]:
    """``<package>.docs.json.gz``: ``{definition name: [{"": description, property: description}, ...]}``."""
    try:
        out: dict[str, list[dict[str, str]]] = _read(f"{package}.docs.json.gz")
    except FileNotFoundError:
        return {}
    return out


@cache
def load_gotypes() -> dict[str, Any]:
    """``gotypes.json.gz`` (``build_backend/gen_builtin_gotypes.py``): named Go types of struct fields."""
    out: dict[str, Any] = _read("gotypes.json.gz")
    return out
