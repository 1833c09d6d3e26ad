"""Loading what the conversion-webhook commands run: a CRD file and a user's converter function.

Used by ``crdtool fuzz-roundtrip``, ``review`` and ``serve`` and by the webhook server's
workers (:mod:`crdtool.server.app`). Every failure is a :class:`UsageError` with a one-line
message naming the file (and line), never a traceback.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from typing import Any, BinaryIO, Callable

__all__ = ["UsageError", "load_crd", "load_target"]


class UsageError(Exception):
    """A problem with the command line or its inputs: a one-line message, exit 2."""


def load_crd(path: str, stdin: BinaryIO | None = None, kubernetes_version: str | None = None) -> dict[str, Any]:
    """The one CRD in ``path`` (``-`` for ``stdin``, by default ``sys.stdin.buffer``), checked as the apiserver
    checks a create.

    Out: the CRD manifest as loaded (a dict). Raises :class:`UsageError` with
    ``file:line: message`` when the file cannot be read, holds no CRD or
    several, or the CRD is invalid.
    """
    from crdtool.core.crd.manifest import check_crd_manifest, is_crd
    from crdtool.yaml.loader import InputError, load_path, load_stream

    items = load_stream(stdin if stdin is not None else sys.stdin.buffer) if path == "-" else load_path(path)
    crds = []
    for item in items:
        if isinstance(item, InputError):
            raise UsageError(str(item))
        if is_crd(item.data):
            crds.append(item)
    if not crds:
        raise UsageError(f"{path}: no apiextensions.k8s.io CustomResourceDefinition found")
    if len(crds) > 1:
        names = ", ".join(str((c.data.get("metadata") or {}).get("name")) for c in crds)
        raise UsageError(f"{path}: holds {len(crds)} CustomResourceDefinitions ({names}); pass a file with one")
    doc = crds[0]
    verdict = check_crd_manifest(doc.data, storage=False, kubernetes_version=kubernetes_version)
    if verdict.findings:
        error = verdict.findings[0].error
        pos = doc.position(error.field) if error.field else None
        line = pos[0] if pos else doc.line
        more = len(verdict.findings) - 1
        tail = f" (and {more} more; crdtool validate {path} lists them)" if more else ""
        raise UsageError(f"{doc.file}:{line}: the CRD is invalid: {error}{tail}")
    return doc.data


def load_target(target: str) -> tuple[Callable[..., Any], str]:
    """Import ``module:function`` or ``path/to/file.py:function``; return the function and a stable id.

    The current directory is put first on ``sys.path`` (as ``python -m``
    does); for a file, its directory too, so it can import its neighbours.
    Raises :class:`UsageError` for a malformed target, a module or file not
    found, an import that raises (with the user's traceback location), a
    missing or non-callable function, or one that cannot take two arguments.
    """
    module_part, sep, attr = target.rpartition(":")
    if not sep or not module_part or not attr:
        raise UsageError(f"TARGET must be module:function or path/to/file.py:function, not {target!r}")
    is_file = module_part.endswith(".py") or "/" in module_part or os.sep in module_part
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    # No __pycache__ beside the user's converter: the run writes nothing outside the cache directory.
    saved_dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        if is_file:
            module, target_id = _import_file(module_part), os.path.abspath(module_part) + ":" + attr
        else:
            module, target_id = _import_module(module_part), target
    finally:
        sys.dont_write_bytecode = saved_dont_write
    fn: Any = module
    for part in attr.split("."):
        if not hasattr(fn, part):
            raise UsageError(f"{module_part} has no function {attr!r}")
        fn = getattr(fn, part)
    if not callable(fn):
        raise UsageError(f"{module_part}:{attr} is a {type(fn).__name__}, not a function")
    try:
        inspect.signature(fn).bind(object(), "")
    except TypeError:
        raise UsageError(
            f"{module_part}:{attr} must accept (obj: dict, desired_api_version: str)"
        ) from None
    except ValueError:
        pass  # no signature to inspect (a builtin): trust it
    return fn, target_id


def _import_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise UsageError(f"module {name!r} not found (the current directory is on sys.path)") from None
        raise UsageError(_import_failure(name, exc)) from None
    except Exception as exc:  # noqa: BLE001 - the user's module may raise anything on import
        raise UsageError(_import_failure(name, exc)) from None


def _import_file(path: str) -> Any:
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    digest = hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:12]
    name = f"_crdtool_fuzz_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - the user's module may raise anything on import
        sys.modules.pop(name, None)
        raise UsageError(_import_failure(path, exc)) from None
    return module


def _import_failure(what: str, exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for frame in reversed(frames):
        if "importlib" not in frame.filename and "<frozen" not in frame.filename:
            where = f" ({frame.filename}:{frame.lineno})"
            break
    if isinstance(exc, SyntaxError):
        where = ""  # its message already says where
    return f"importing {what} failed: {type(exc).__name__}: {exc}{where}"
