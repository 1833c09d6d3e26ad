"""Which modules a build compiles with mypyc, and how to run their Python source instead.

A source install (``pip install .``, ``pip install -e .``) is pure Python. A
build with ``CRDTOOL_MYPYC=1`` set (``python -m build --wheel``, cibuildwheel:
the release wheels; or ``CRDTOOL_MYPYC=1 pip install .``) compiles the modules
below into C extensions with mypyc (``setup.py``); they then load in place of
their ``.py`` files, and ``crdtool validate`` takes about a third less time.

At run time the ``.py`` sources are used instead of the compiled modules when
``CRDTOOL_PURE_PYTHON=1`` is set (the differential tests compare the two), and
when any compiled module is older than its source (an editable install whose
source was edited since it was built), with a warning.

This module imports nothing of crdtool: ``setup.py`` reads it too.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

#: The core modules a build compiles: the hot ones, and those every validation imports (a module that is not
#: compiled is compiled from source by each process when there is no bytecode). mypy --strict clean;
#: nothing monkeypatches their names and no module left as Python subclasses their classes. Left out on
#: purpose: the public API's modules (compiled functions and classes lose their docstrings), CEL evaluation (its depth
#: limit is Python's recursion limit), JSON rendering (identity of passed-through values), inputs.py (slower).
COMPILED_MODULES: tuple[str, ...] = (
    "crdtool.core.celgo.ast",
    "crdtool.core.celgo.checker",
    "crdtool.core.celgo.cost",
    "crdtool.core.celgo.decls",
    "crdtool.core.celgo.env",
    "crdtool.core.celgo.parser",
    "crdtool.core.celgo.types",
    "crdtool.core.celgo.validators",
    "crdtool.core.celgo.values",
    "crdtool.core.apis._util",
    "crdtool.core.apis.core.validation",
    "crdtool.core.apis.rbac.validation",
    "crdtool.core.builtin.decode",
    "crdtool.core.crd.decode",
    "crdtool.core.crd.schema_validation",
    "crdtool.core.crd.schema_walk",
    "crdtool.core.crd.types",
    "crdtool.core.crd.validation",
    "crdtool.core.crdcel.compilation",
    "crdtool.core.gostd",
    "crdtool.core.gotime",
    "crdtool.core.kubecel.decltype",
    "crdtool.core.kubecel.environment",
    "crdtool.core.kubecel.library",
    "crdtool.core.kubecel.library_cost",
    "crdtool.core.kubecel.library_decls",
    "crdtool.core.kubecel.strfmt",
    "crdtool.core.kubecel.unstructured",
    "crdtool.core.objectmeta",
    "crdtool.core.registry.generic",
    "crdtool.core.schema.formats",
    "crdtool.core.schema.structural",
    "crdtool.core.validation_util",
)

#: Extension modules written in C, each from the ``.c`` file beside it, built with the mypyc modules. They have no
#: Python source: with ``CRDTOOL_PURE_PYTHON=1`` (or a stale build) importing them fails, and their callers take
#: their pure-Python way (``crdtool/core/snapshot.py`` falls back to ``marshal``).
C_EXTENSIONS: tuple[str, ...] = ("crdtool.core._snapshot",)

#: A compiled module counts as stale when its source is newer by more than this (seconds); installing
#: writes both files within a moment of each other.
STALE_AFTER = 2.0


class _SourceFinder:
    """A ``sys.meta_path`` finder: the ``.py`` file of the named modules, ahead of the extension modules beside them."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names or not path:
            return None
        if fullname in C_EXTENSIONS:
            raise ModuleNotFoundError(f"{fullname} is turned off: crdtool runs from source", name=fullname)
        import importlib.util

        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            candidate = os.path.join(entry, leaf)
            if os.path.isfile(candidate):
                return importlib.util.spec_from_file_location(fullname, candidate)
        return None


def _files(package_dir: str, name: str) -> tuple[str, list[str]]:
    """The module's source path (``.py``, or ``.c`` for :data:`C_EXTENSIONS`) and the paths its extension could have."""
    base = os.path.join(package_dir, *name.split(".")[1:])
    source = base + (".c" if name in C_EXTENSIONS else ".py")
    return source, [base + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES]


def compiled_state(package_dir: str | None = None) -> dict[str, str]:
    """Each of :data:`COMPILED_MODULES` and :data:`C_EXTENSIONS` as found on disk: ``"compiled"``, ``"stale"`` or ``"source"``.

    ``"stale"``: an extension module whose source file (``.py`` or ``.c``) is
    newer by more than :data:`STALE_AFTER` seconds (an installed wheel has no
    ``.c`` file: that counts as current); ``"source"``: no extension module.
    In: the directory of the ``crdtool`` package (this one by default).
    """
    package_dir = package_dir or os.path.dirname(os.path.abspath(__file__))
    out: dict[str, str] = {}
    for name in COMPILED_MODULES + C_EXTENSIONS:
        source, extensions = _files(package_dir, name)
        state = "source"
        for ext in extensions:
            try:
                built = os.stat(ext).st_mtime
            except OSError:
                continue
            try:
                edited = os.stat(source).st_mtime
            except OSError:
                edited = built
            state = "stale" if edited - built > STALE_AFTER else "compiled"
            break
        out[name] = state
    return out


def install_source_finder(environ: Any = os.environ, package_dir: str | None = None) -> list[str]:
    """Make the modules that must run from source do so; returns their names (run once, by ``crdtool``).

    All of them when ``CRDTOOL_PURE_PYTHON`` is set (to anything but ``""``
    or ``"0"``), and all of them, with a ``RuntimeWarning``, when any one is
    stale: the compiled modules are one library whose modules call each other
    directly, so a compiled caller would go on running the old code of a stale
    module. The names are :data:`COMPILED_MODULES` and then
    :data:`C_EXTENSIONS`, whose import then fails (they have no Python
    source). Touches ``sys.meta_path`` only when it returns names.
    """
    names: list[str] = []
    if environ.get("CRDTOOL_PURE_PYTHON", "") not in ("", "0"):
        names = list(COMPILED_MODULES + C_EXTENSIONS)
    else:
        stale = [name for name, state in compiled_state(package_dir).items() if state == "stale"]
        if stale:
            import warnings

            warnings.warn(
                "crdtool: compiled modules older than their source (" + ", ".join(stale) + "); running every "
                "compiled module from source (reinstall crdtool to compile them again)",
                RuntimeWarning,
                stacklevel=2,
            )
            names = list(COMPILED_MODULES + C_EXTENSIONS)
    if names:
        sys.meta_path.insert(0, _SourceFinder(frozenset(names)))
    return names
