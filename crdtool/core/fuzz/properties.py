"""The round-trip properties of a conversion function, its failure model, and the runner.

For an object ``x`` generated at version A and a desired version B, the
properties checked (issue #5) are, in this order:

``call``
    ``convert(x, B)`` returns a JSON object (a dict), does not raise and
    finishes within the timeout (5 in the issue's list).
``unchanged``
    when A = B: the object comes back exactly as it went in (4).
``metadata``
    the converted object has ``apiVersion`` = B and the same ``kind``,
    ``metadata.name``, ``metadata.namespace`` and ``metadata.uid`` (the
    apiserver rejects the conversion otherwise); other ``metadata`` than
    labels and annotations is unchanged (the apiserver silently reverts such
    changes); labels and annotations stay valid (2). Mirrors
    apiextensions-apiserver ``pkg/apiserver/conversion/converter.go``
    (``crConverter.ConvertToVersion``, ``validateConvertedObject``,
    ``restoreObjectMeta``). The apiserver never sends an object already at
    the desired version to the webhook, so ``unchanged`` is robustness only.
``schema``
    the converted object is valid for B's schema and nothing of it would be
    pruned (3), as :func:`crdtool.core.fuzz.check_object` judges.
``roundtrip``
    ``convert(convert(x, B), A)`` equals ``x`` exactly (1), both as the
    apiserver returns them (:func:`as_served`: metadata through ObjectMeta,
    so an empty ``annotations: {}`` is no difference), compared as JSON:
    ``1`` and ``1.0`` are equal (Go re-encodes both as ``1``), ``1`` and
    ``true`` are not, and integers compare exactly (a value beyond 2**53
    squeezed through a float is a difference).

**Timeouts.** :func:`guarded_call` runs the user's function on the calling
thread and, when that is the main thread of a POSIX process, arms
``signal.setitimer(ITIMER_REAL)``; the SIGALRM handler raises
:class:`ConversionTimeout` (a ``BaseException``, so ``except Exception`` in
user code does not swallow it) inside the user's code, whose traceback then
shows where it was stuck. This costs two system calls per call, keeps the
objects in-process (no pickling) and leaves no runaway thread behind. Its
limit: C code that does not return to the interpreter (a blocking C call that
ignores signals) cannot be interrupted, and a function that swallows
``BaseException`` is reported as timed out only when it returns. A previous
SIGALRM handler and timer are restored afterwards. Off the main thread (or
without ``setitimer``) the call runs in a daemon worker thread joined with
the timeout; a thread cannot be killed, so a timed-out call is abandoned and
keeps running in the background. A worker subprocess was rejected: the
function would have to be importable in the child (no closures or test
doubles), every object pickled both ways and the user's traceback carried
across; its one advantage, killing C code that ignores signals, is rare.

The conversion back (B -> A) is held to properties 2 and 3 as well before
the round trip is compared, so a converter that breaks only in one
direction is reported by the property it breaks.

**Replay and seeds.** :func:`run_pair` stores failing examples in the
hypothesis example database it is given (the CLI uses a directory
database), under a key made of the caller's ``key`` and the pair, so a later
run replays them first; ``replay=True`` runs only those saved examples. The
seed is set on the test directly: ``hypothesis.seed()`` would also switch
the database off. Shrinking is bounded (``shrink_seconds``) so a slow
converter cannot stall a run for hypothesis's default five minutes.
"""

from __future__ import annotations

import contextlib
import io
import math
import signal
import sys
import threading
import time
import traceback
import unittest
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from crdtool.core.errors import Path, go_type_name
from crdtool.core.fuzz import ConvertFn, ExtraValidator, VersionSchema, check_object

__all__ = [
    "PROPERTIES",
    "CallOutcome",
    "ConversionTimeout",
    "Failure",
    "PairResult",
    "as_served",
    "check_example",
    "diff_text",
    "guarded_call",
    "json_equal",
    "objects_per_example",
    "run_pair",
    "run_source",
]

#: Property names, in the order they are checked.
PROPERTIES = ("call", "unchanged", "metadata", "schema", "roundtrip")

# Metadata fields a conversion may not change; the apiserver rejects the response.
_IDENTITY_FIELDS = ("name", "namespace", "uid")
# Metadata fields a conversion may change.
_MUTABLE_FIELDS = ("labels", "annotations")
_MAX_NODES = 1_000_000
_THIS_FILE = __file__


class ConversionTimeout(BaseException):
    """Raised inside the user's function when it exceeds the timeout (SIGALRM)."""


# --- calling the user's function --------------------------------------------------------------------


@dataclass(frozen=True)
class CallOutcome:
    """The result of one guarded call.

    ``value`` is the returned object normalised to plain JSON (tuples become
    lists) when ``problem`` is None; otherwise ``problem`` says what went
    wrong in one line and ``traceback`` holds the traceback inside the user's
    code (exceptions and timeouts).
    """

    value: Any = None
    problem: str | None = None
    traceback: str | None = None
    seconds: float = 0.0


def guarded_call(fn: ConvertFn, obj: dict[str, Any], desired: str, timeout: float | None) -> CallOutcome:
    """Call ``fn(obj, desired)`` with a timeout; never raises (except KeyboardInterrupt).

    In: the user's function, the object (passed as is: callers pass a copy),
    the desired apiVersion and the timeout in seconds (None or 0: no limit).
    Out: a :class:`CallOutcome`. Anything the function prints to stdout is
    discarded (it would corrupt ``--output json``). See the module docstring
    for the timeout mechanism.
    """
    use_alarm = (
        bool(timeout)
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    start = time.perf_counter()
    if use_alarm:
        value, exc, stack = _call_with_alarm(fn, obj, desired, float(timeout or 0))
    else:
        value, exc, stack = _call_in_thread(fn, obj, desired, timeout)
    seconds = time.perf_counter() - start
    if isinstance(exc, ConversionTimeout) or (exc is None and stack is not None):
        tb = _user_traceback(exc) if exc is not None else stack
        return CallOutcome(problem=f"did not finish within {timeout:g} s (timeout)", traceback=tb, seconds=seconds)
    if exc is not None:
        message = str(exc)
        problem = f"raised {type(exc).__name__}: {message}" if message else f"raised {type(exc).__name__}"
        return CallOutcome(problem=problem, traceback=_user_traceback(exc), seconds=seconds)
    if timeout and seconds > timeout:
        return CallOutcome(problem=f"took {seconds:.3g} s, more than the {timeout:g} s timeout", seconds=seconds)
    if not isinstance(value, dict):
        return CallOutcome(problem=f"returned {_type_name(value)}, not a dict", seconds=seconds)
    normalised, bad = _to_json(value)
    if bad is not None:
        return CallOutcome(problem=f"returned an object that is not JSON: {bad}", seconds=seconds)
    return CallOutcome(value=normalised, seconds=seconds)


def _call_with_alarm(
    fn: ConvertFn, obj: dict[str, Any], desired: str, timeout: float
) -> tuple[Any, BaseException | None, str | None]:
    armed = [True]

    def on_alarm(signum: int, frame: Any) -> None:
        if armed[0]:
            armed[0] = False
            raise ConversionTimeout(f"conversion did not finish within {timeout:g} s")

    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, timeout)
    start = time.monotonic()
    value: Any = None
    error: BaseException | None = None
    try:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                value = fn(obj, desired)
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - the user's code may raise anything, SystemExit included
        error = exc
    finally:
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay > 0:
            remaining = max(previous_delay - (time.monotonic() - start), 1e-6)
            signal.setitimer(signal.ITIMER_REAL, remaining, previous_interval)
    return value, error, None


def _call_in_thread(
    fn: ConvertFn, obj: dict[str, Any], desired: str, timeout: float | None
) -> tuple[Any, BaseException | None, str | None]:
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(obj, desired)
        except BaseException as exc:  # noqa: BLE001 - reported, not raised
            box["error"] = exc

    worker = threading.Thread(target=target, name="crdtool-fuzz-convert", daemon=True)
    worker.start()
    worker.join(timeout or None)
    if worker.is_alive():
        frame = sys._current_frames().get(worker.ident or -1)
        stack = "".join(traceback.format_stack(frame)) if frame is not None else ""
        return None, None, "Stack of the abandoned call (most recent call last):\n" + stack
    error = box.get("error")
    if isinstance(error, KeyboardInterrupt):
        raise error
    return box.get("value"), error, None


def _user_traceback(exc: BaseException) -> str:
    """The traceback without crdtool's own frames (only the user's code remains)."""
    te = traceback.TracebackException.from_exception(exc)
    frames = [f for f in te.stack if f.filename != _THIS_FILE]
    te.stack = traceback.StackSummary.from_list(frames)
    return "".join(te.format())


def _type_name(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _to_json(value: Any) -> tuple[Any, str | None]:
    """A plain-JSON copy of ``value`` (tuples as lists), or the path of the first non-JSON value."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, str]] = [(value, root, 0, "")]
    nodes = 0
    while stack:
        v, container, slot, path = stack.pop()
        nodes += 1
        if nodes > _MAX_NODES:
            return None, "more than a million values (a cycle?)"
        if v is None or isinstance(v, (str, bool)):
            container[slot] = v
        elif isinstance(v, int):
            container[slot] = int(v)
        elif isinstance(v, float):
            if not math.isfinite(v):
                return None, f"{v!r} at {path or '<root>'}"
            container[slot] = float(v)
        elif isinstance(v, dict):
            out: dict[str, Any] = {}
            container[slot] = out
            for k, x in v.items():
                if not isinstance(k, str):
                    return None, f"key {k!r} ({type(k).__name__}) at {path or '<root>'}"
                out[k] = None
                stack.append((x, out, k, str(Path(path).child(k)) if path else k))
        elif isinstance(v, (list, tuple)):
            lst: list[Any] = [None] * len(v)
            container[slot] = lst
            for i, x in enumerate(v):
                stack.append((x, lst, i, f"{path}[{i}]"))
        else:
            return None, f"{type(v).__name__} at {path or '<root>'}"
    return root[0], None


# --- JSON equality and diffs ------------------------------------------------------------------------


def json_equal(a: Any, b: Any) -> bool:
    """Equality of decoded JSON as the apiserver sees it.

    Numbers compare by exact value regardless of int/float (Go re-encodes
    ``1.0`` as ``1``), booleans are not numbers, objects ignore key order,
    lists do not. Iterative: deep values cannot exhaust the stack.
    """
    stack: list[tuple[Any, Any]] = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, bool) or isinstance(y, bool):
            if not (isinstance(x, bool) and isinstance(y, bool) and x == y):
                return False
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
            if x != y:
                return False
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif type(x) is not type(y) or x != y:
            return False
    return True


def diff_text(before: Any, after: Any) -> str:
    """A readable difference (deepdiff's ``pretty()``) between two JSON values.

    Integral floats are shown as integers first, so ``1`` vs ``1.0`` is no
    difference while ``9007199254740993`` vs ``9007199254740992.0`` reads as
    a changed value. deepdiff is imported here, lazily.
    """
    from deepdiff import DeepDiff

    text = DeepDiff(_for_diff(before), _for_diff(after), verbose_level=2).pretty()
    return text or "(no difference deepdiff can show)"


def _for_diff(v: Any) -> Any:
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    if isinstance(v, dict):
        return {k: _for_diff(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_for_diff(x) for x in v]
    return v


# --- the failure model ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    """A broken property for one (shrunk) input, in the JSON shape of ``--output json``.

    ``property`` is one of :data:`PROPERTIES`; ``converted`` is
    ``convert(input, to)`` when it returned; ``roundtrip`` is
    ``convert(converted, from)`` when that ran; ``diff`` a readable
    difference (empty when there is none to show); ``error`` what went wrong,
    with the user's traceback for exceptions and timeouts.
    """

    property: str
    from_version: str
    to_version: str
    input: Any
    converted: Any = None
    roundtrip: Any = None
    diff: str = ""
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "property": self.property,
            "from": self.from_version,
            "to": self.to_version,
            "input": self.input,
            "converted": self.converted,
            "roundtrip": self.roundtrip,
            "diff": self.diff,
            "error": self.error,
        }


def check_example(
    convert: ConvertFn,
    obj: dict[str, Any],
    source: VersionSchema,
    target: VersionSchema,
    *,
    timeout: float | None = None,
    extra: ExtraValidator | None = None,
) -> Failure | None:
    """Check every property for one object at ``source`` converted to ``target``.

    In: the user's function, a valid object at ``source`` (not modified: the
    function gets deep copies), the two versions. Out: the first broken
    property as a :class:`Failure`, or None when all hold.
    """
    from crdtool.core.schema.defaulting import copy_json

    def fail(prop: str, **kw: Any) -> Failure:
        return Failure(prop, source.version, target.version, copy_json(obj), **kw)

    # the objects compared here never reach the user's function: it gets copies of them, and what it returns
    # is copied (guarded_call's _to_json); so the served metadata of each is worked out once
    known: _Served = {}
    _remember_served(obj, known)
    first = guarded_call(convert, copy_json(obj), target.api_version, timeout)
    if first.problem is not None:
        return fail("call", error=_call_error(first, source, target))
    converted = first.value
    _remember_served(converted, known)
    if source.version == target.version:
        if json_equal(as_served(converted), as_served(obj, known)):
            return None
        return fail(
            "unchanged",
            converted=converted,
            diff=diff_text(as_served(obj, known), as_served(converted)),
            error=f"an object already at {target.api_version} came back changed",
        )
    failure = _check_converted(obj, converted, target, extra, fail, lambda **kw: kw, known=known)
    if failure is not None:
        return failure
    second = guarded_call(convert, copy_json(converted), source.api_version, timeout)
    if second.problem is not None:
        return fail("call", converted=converted, error=_call_error(second, target, source))
    back = second.value
    _remember_served(back, known)
    # The conversion back is held to the same rules before the objects are compared.
    failure = _check_converted(
        converted, back, source, extra, fail, lambda **kw: {**kw, "roundtrip": back, "converted": converted},
        leg=f"converting back ({target.version} -> {source.version}): ", known=known,
    )
    if failure is not None:
        return failure
    if not json_equal(as_served(back, known), as_served(obj, known)):
        return fail(
            "roundtrip",
            converted=converted,
            roundtrip=back,
            diff=diff_text(as_served(obj, known), as_served(back, known)),
            error=f"{source.version} -> {target.version} -> {source.version} did not return the original object",
        )
    return None


def _check_converted(
    before: dict[str, Any],
    after: dict[str, Any],
    version: VersionSchema,
    extra: ExtraValidator | None,
    fail: Callable[..., Failure],
    fields: Callable[..., dict[str, Any]],
    leg: str = "",
    known: _Served | None = None,
) -> Failure | None:
    """Properties 2 and 3 for one conversion ``before`` -> ``after`` at ``version``."""
    problems = metadata_problems(before, after, version.api_version, known)
    if problems:
        return fail("metadata", **fields(converted=after, diff=diff_text(_head(before), _head(after)),
                                         error=leg + "; ".join(problems)))
    check = check_object(after, version, extra=extra)
    if not check.ok:
        return fail("schema", **fields(converted=after, diff=_pruning_diff(after, version, check.pruned),
                                       error=leg + _schema_error(check, version)))
    return None


def metadata_problems(
    original: dict[str, Any], converted: dict[str, Any], desired: str, known: _Served | None = None
) -> list[str]:
    """What the apiserver would reject or silently revert in a converted object's type and object meta.

    Mirrors apiextensions-apiserver ``pkg/apiserver/conversion/converter.go``
    (``crConverter.ConvertToVersion``: groupVersion and kind checks,
    ``validateConvertedObject``, ``restoreObjectMeta``). Rejections carry
    upstream's message followed by "(the apiserver rejects the conversion)";
    changes to metadata other than labels and annotations, which
    ``restoreObjectMeta`` silently reverts, are reported as
    "metadata.<field> changed from X to Y (the apiserver silently restores it)".
    ``known``: served metadata already worked out (:func:`_remember_served`).
    """
    out: list[str] = []
    rejects = " (the apiserver rejects the conversion)"
    got_version = _go_string(converted.get("apiVersion"))
    if got_version != desired:
        out.append(f"invalid groupVersion (expected {desired}, received {got_version}){rejects}")
    kind, got_kind = _go_string(original.get("kind")), _go_string(converted.get("kind"))
    if kind != got_kind:
        out.append(f"invalid kind (expected {kind}, received {got_kind}){rejects}")
    before = original.get("metadata")
    before = before if isinstance(before, dict) else {}
    after = converted.get("metadata", _ABSENT)
    if after is _ABSENT or after is None:
        return out + [f"missing metadata in converted object{rejects}"]
    if not isinstance(after, dict):
        return out + [f"invalid metadata of type {go_type_name(after)} in converted object{rejects}"]
    for key, label in (("name", "name"), ("namespace", "namespace"), ("uid", "UID")):
        e, a = _go_string(before.get(key)), _go_string(after.get(key))
        if e != a:
            out.append(f"must have the same {label}: {e} != {a}{rejects}")
    served_before, served_after = _served_meta(before, known), _served_meta(after, known)
    for key in sorted(set(before) | set(after)):
        if key in _IDENTITY_FIELDS or key in _MUTABLE_FIELDS:
            continue
        if served_before is not None and served_after is not None and _is_object_meta_field(key):
            # an ObjectMeta field, compared as clients get it: an empty list or map is no field at all
            same = json_equal(served_before.get(key, _ABSENT), served_after.get(key, _ABSENT))
        else:
            same = json_equal(before.get(key, _ABSENT), after.get(key, _ABSENT))
        if not same:
            out.append(
                f"metadata.{key} changed from {_show(before.get(key, _ABSENT))} to {_show(after.get(key, _ABSENT))}"
                " (the apiserver silently restores it)"
            )
    for fld in _MUTABLE_FIELDS:
        problem = _string_map_problem(fld, before.get(fld), after.get(fld))
        if problem:
            out.append(problem + rejects)
    return out


def as_served(obj: Any, known: _Served | None = None) -> Any:
    """``obj`` as clients get it from the apiserver: ``metadata`` through ``metav1.ObjectMeta``.

    apiextensions-apiserver v0.36.3 ``customresource_handler.go``: the ``schemaCoercingConverter``
    around every conversion runs ``unstructuredSchemaCoercer.apply``, which decodes ``metadata``
    (``objectmeta.GetObjectMetaWithOptions``) and writes it back (``SetObjectMeta``:
    ``runtime.DefaultUnstructuredConverter.ToUnstructured``), so fields ``ObjectMeta`` does not have
    are gone, and so are, by ``omitempty``, empty ``labels``, ``annotations``, ``finalizers``,
    ``ownerReferences`` and ``managedFields`` and empty strings and zero numbers (a zero
    ``creationTimestamp``, written ``null``, the server fills). Anything else, or metadata that
    does not decode, is returned as it is. ``known``: served metadata already worked out
    (:func:`_remember_served`).
    """
    if not isinstance(obj, dict):
        return obj
    meta = _served_meta(obj.get("metadata"), known)
    if meta is None:
        return obj
    return {**obj, "metadata": meta}


#: Served metadata worked out once within one :func:`check_example`: ``id(metadata)`` -> (the metadata, kept
#: alive so that its id stays its own; its served form). Only for objects no user code can change meanwhile.
_Served = dict[int, tuple[Any, "dict[str, Any] | None"]]


def _remember_served(obj: Any, known: _Served) -> None:
    """Record ``obj``'s served metadata in ``known`` (its metadata must not change while ``known`` is used)."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict):
        known[id(meta)] = (meta, _served_meta(meta))


def _served_meta(meta: Any, known: _Served | None = None) -> dict[str, Any] | None:
    """``metadata`` after the ObjectMeta round trip, or None when it is not a decodable mapping.

    ``known``: results already worked out (:func:`_remember_served`), by identity; the result is then shared:
    callers never change it (they compare it, or build a new object around it).
    """
    from crdtool.core.schema.objectmeta import object_meta_round_trip

    if not isinstance(meta, dict):
        return None
    if known is not None:
        hit = known.get(id(meta))
        if hit is not None and hit[0] is meta:
            return hit[1]
    result = object_meta_round_trip(meta, Path("metadata"))
    return result.meta if result.error is None else None


def _is_object_meta_field(key: str) -> bool:
    from crdtool.core.schema.objectmeta import OBJECT_META_FIELDS

    return key in OBJECT_META_FIELDS


def _string_map_problem(fld: str, before: Any, after: Any) -> str | None:
    """``restoreObjectMeta`` on ``metadata.labels`` or ``metadata.annotations``."""
    from crdtool.core.objectmeta import validate_annotations, validate_labels

    if after is None:
        return None
    if not isinstance(after, dict):
        return f"invalid metadata.{fld} of type {go_type_name(after)} in converted object"
    for k, v in after.items():
        if not isinstance(v, str):
            return f"metadata.{fld}[{k}] must be a string, but is {go_type_name(v)} in converted object"
    original = before if isinstance(before, dict) else {}
    if len(original) == len(after) and all(original.get(k) == v for k, v in after.items()):
        return None  # unchanged: upstream validates only changed maps
    if fld == "labels":
        errs = validate_labels(after, Path("metadata", "labels"))
    else:
        errs = validate_annotations(after, Path("metadata", "annotation"))  # sic: upstream's path
    if not errs:
        return None
    return _aggregate([str(e) for e in errs])


def _aggregate(messages: list[str]) -> str:
    """``field.ErrorList.ToAggregate().Error()``: one message, or ``[a, b]``."""
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def _go_string(v: Any) -> str:
    """What ``unstructured`` accessors (``GetName``, ``GetKind``...) return: the string, else ""."""
    return v if isinstance(v, str) else ""


def _head(obj: dict[str, Any]) -> dict[str, Any]:
    """``apiVersion``, ``kind`` and ``metadata`` of an object (what property 2 is about)."""
    return {k: obj[k] for k in ("apiVersion", "kind", "metadata") if k in obj}


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT: Any = _Absent()


def _show(v: Any) -> str:
    if v is _ABSENT:
        return "absent"
    import json

    try:
        text = json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 200 else text[:197] + "..."


def _call_error(outcome: CallOutcome, source: VersionSchema, target: VersionSchema) -> str:
    head = f"convert(<{source.api_version} object>, {target.api_version!r}) {outcome.problem}"
    return f"{head}\n{outcome.traceback}" if outcome.traceback else head


def _schema_error(check: Any, target: VersionSchema) -> str:
    lines: list[str] = []
    if check.pruned:
        lines.append(
            f"fields the {target.version} schema does not specify would be pruned by the apiserver: "
            + ", ".join(check.pruned)
        )
    if check.errors:
        lines.append(f"invalid for the {target.version} schema: " + "; ".join(str(e) for e in check.errors))
    return "\n".join(lines)


def _pruning_diff(converted: Any, target: VersionSchema, pruned: tuple[str, ...]) -> str:
    if not pruned:
        return ""
    from crdtool.core.schema.pruning import prune

    kept, _ = prune(converted, dict(target.schema) if target.schema is not None else None)
    return diff_text(converted, kept)


# --- the hypothesis runner --------------------------------------------------------------------------


@dataclass
class PairResult:
    """The outcome for one ordered pair of versions.

    ``examples``: objects checked (up to and including the first failing one);
    ``failure``: the shrunk failure, if any; ``gave_up``: why no objects could
    be generated (the schema is unsatisfiable for the generator), if so.
    """

    from_version: str
    to_version: str
    examples: int = 0
    failure: Failure | None = None
    gave_up: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failure is None and self.gave_up is None

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.from_version, "to": self.to_version, "examples": self.examples, "ok": self.ok}


class _PropertyFailed(Exception):
    """Carries a :class:`Failure` out of the hypothesis test; one subclass per property."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"{failure.property}: {failure.error}")
        self.failure = failure


# Distinct exception types keep hypothesis from shrinking one property's failure into another's.
_FAILED = {name: type(f"{name.title()}Failed", (_PropertyFailed,), {}) for name in PROPERTIES}


def objects_per_example(version: VersionSchema) -> int:
    """How many objects of ``version`` one hypothesis example should hold (``run_source``'s ``per_example``).

    Lists of objects share hypothesis's cost per example, but an example has
    a fixed budget of choices (8 KiB); lists of large objects overrun it and
    are thrown away, which costs far more than it saves. Objects grow with the
    schema (up to the generator's :class:`~crdtool.core.fuzz.strategies.Budget`),
    so the count falls with the number of schema nodes: measured on the CronTab
    (4-8 nodes: 8 best), corpus CRDs of 16-130 nodes (4 best) and Gateway API's
    HTTPRoute (196 nodes: 2 best, 4 already 3x slower than 1).
    """
    s = version.structural
    nodes = sum(1 for _ in s.walk()) if s is not None else 1
    if nodes <= 16:
        return 8
    if nodes <= 150:
        return 4
    if nodes <= 400:
        return 2
    return 1


def run_pair(
    convert: ConvertFn,
    source: VersionSchema,
    target: VersionSchema,
    *,
    examples: int = 200,
    seed: int | None = None,
    timeout: float | None = 5.0,
    database: Any = None,
    replay: bool = False,
    key: bytes = b"",
    extra: ExtraValidator | None = None,
    strategy: Any = None,
    on_example: Callable[[], None] | None = None,
    shrink_seconds: float | None = 30.0,
    batch_size: int = 1,
    before_batch: Callable[[list[dict[str, Any]]], None] | None = None,
    shrink_steps: int | None = None,
) -> PairResult:
    """Property-test ``convert`` on objects generated at ``source`` converted to ``target``.

    In: the user's function; the two versions; ``examples`` per pair
    (hypothesis ``max_examples``); ``seed`` for a reproducible run (None:
    random); ``timeout`` per call in seconds; ``database`` a hypothesis
    ``ExampleDatabase`` (None: nothing saved); ``replay`` runs only the
    saved failures; ``key`` distinguishes this run's saved examples (the CLI
    passes the target and the CRD's identity); ``strategy`` overrides the
    object strategy; ``on_example`` is called after every checked object;
    ``shrink_seconds`` bounds the time spent shrinking a failure (hypothesis's
    own bound is five minutes; None keeps it), after which the smallest
    failing example found so far is reported: where a time limit cuts the
    shrinking depends on the machine's load, so a run that must give the
    same failure for a seed bounds it by ``shrink_steps`` instead (the number
    of successful shrinks, hypothesis's ``MAX_SHRINKS``, 500 by default)
    with ``shrink_seconds=None``. With ``batch_size`` > 1 each
    example is a list of 1 to ``batch_size`` objects, handed to
    ``before_batch`` first (a webhook converts them in one ConversionReview)
    and then checked one by one; a failure shows the failing object.

    Out: a :class:`PairResult` holding the shrunk failure, if any. Raises
    only KeyboardInterrupt. :func:`run_source` with one target.
    """
    return run_source(
        convert, source, [target], examples=examples, seed=seed, timeout=timeout, database=database,
        replay=replay, key=key, extra=extra, strategy=strategy, on_example=on_example,
        shrink_seconds=shrink_seconds, batch_size=batch_size, before_batch=before_batch, shrink_steps=shrink_steps,
    )[0]


def run_source(
    convert: ConvertFn,
    source: VersionSchema,
    targets: list[VersionSchema],
    *,
    examples: int = 200,
    seed: int | None = None,
    timeout: float | None = 5.0,
    database: Any = None,
    replay: bool = False,
    key: bytes = b"",
    extra: ExtraValidator | None = None,
    strategy: Any = None,
    on_example: Callable[[], None] | None = None,
    shrink_seconds: float | None = 30.0,
    batch_size: int = 1,
    before_batch: Callable[[list[dict[str, Any]]], None] | None = None,
    per_example: int = 1,
    shrink_steps: int | None = None,
) -> list[PairResult]:
    """Property-test ``convert`` on objects generated at ``source``, each converted to every one of ``targets``.

    Each object is generated once and checked against every target in turn,
    so N targets cost one generation per object instead of N. Arguments as
    for :func:`run_pair`; out: one :class:`PairResult` per target, in the
    order of ``targets``, each with up to ``examples`` checked objects.

    ``per_example`` > 1 makes each hypothesis example a list of that many
    objects (not with ``batch_size``): hypothesis's own cost per example
    (its bookkeeping of choices, mutations of earlier examples) is then
    shared by several objects, which roughly halves the cost of generating
    one at 8. Exactly ``examples`` objects are still checked per pair (the
    last list is cut); a failure is shrunk as a list of ``per_example``
    objects, and the object that fails is the one reported.

    A failure stops hypothesis and is shrunk (the shrunk object may fail
    another target first: it is reported under the pair it breaks); the
    targets without a failure yet are then tested again, with the rest of
    their examples, until every target has passed its examples or failed.
    Each such run saves its failures in ``database`` under ``key``, the
    source and the names of the targets it tested, so a later run with the
    same versions replays them first (and ``replay`` runs only them). For
    one target that key is :func:`run_pair`'s.
    """
    results = {id(t): PairResult(source.version, t.version) for t in targets}
    pending = list(targets)
    while pending:
        before = {id(t): results[id(t)].examples for t in pending}
        failure, gave_up, notes = _run_once(
            convert, source, pending, results, examples=examples - min(before.values()), seed=seed,
            timeout=timeout, database=database, replay=replay, key=key, extra=extra, strategy=strategy,
            on_example=on_example, shrink_seconds=shrink_seconds, batch_size=batch_size,
            before_batch=before_batch, per_example=per_example if batch_size <= 1 else 1, shrink_steps=shrink_steps,
        )
        if gave_up is not None:
            for t in pending:
                results[id(t)].gave_up = gave_up
            break
        if failure is None:
            break
        failed = next(t for t in pending if t.version == failure.to_version)
        results[id(failed)].failure = failure
        results[id(failed)].notes.extend(notes)
        pending = [t for t in pending if t is not failed]
        if not replay and all(results[id(t)].examples >= examples for t in pending):
            break
    return [results[id(t)] for t in targets]


def _run_once(
    convert: ConvertFn,
    source: VersionSchema,
    targets: list[VersionSchema],
    results: dict[int, PairResult],
    *,
    examples: int,
    seed: int | None,
    timeout: float | None,
    database: Any,
    replay: bool,
    key: bytes,
    extra: ExtraValidator | None,
    strategy: Any,
    on_example: Callable[[], None] | None,
    shrink_seconds: float | None,
    batch_size: int,
    before_batch: Callable[[list[dict[str, Any]]], None] | None,
    per_example: int,
    shrink_steps: int | None = None,
) -> tuple[Failure | None, str | None, list[str]]:
    """One hypothesis run over ``targets``: (the shrunk failure, why nothing could be generated, notes)."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis.errors import HypothesisException

    from crdtool.core.fuzz.strategies import object_strategy

    found = [False]
    checked = [0]

    def check(obj: dict[str, Any]) -> None:
        if not found[0]:
            checked[0] += 1
        if on_example is not None:
            on_example()
        for target in targets:
            if not found[0]:
                results[id(target)].examples += 1
            failure = check_example(convert, obj, source, target, timeout=timeout, extra=extra)
            if failure is not None:
                found[0] = True
                raise _FAILED[failure.property](failure)  # outside any except block: no exception context

    def check_batch(objs: list[dict[str, Any]]) -> None:
        if before_batch is not None:
            before_batch(objs)
        for obj in objs:
            check(obj)

    def check_several(objs: list[dict[str, Any]]) -> None:
        for obj in objs:
            if not found[0] and checked[0] >= examples:
                return  # the budget is spent: the rest of the last list is not checked
            check(obj)

    phases = (Phase.explicit, Phase.reuse, Phase.shrink) if replay else (
        Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink
    )
    configured = settings(
        max_examples=max(-(-examples // per_example), 1),
        deadline=None,
        database=database,
        derandomize=False,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    objects = strategy if strategy is not None else object_strategy(source, extra=extra)
    if batch_size > 1:
        from hypothesis import strategies as st

        test = configured(given(st.lists(objects, min_size=1, max_size=batch_size))(check_batch))
    elif per_example > 1:
        from hypothesis import strategies as st

        test = configured(given(st.lists(objects, min_size=per_example, max_size=per_example))(check_several))
    else:
        test = configured(given(objects)(check))
    names = b",".join(t.version.encode() for t in targets)
    digest = key + b"\0" + source.version.encode() + b"\0" + names
    if per_example > 1:  # a saved list of objects is another choice sequence than a saved object
        digest += b"\0x" + str(per_example).encode()
    # A stable database key, independent of this function's source code (which hypothesis
    # would hash): saved failures survive crdtool upgrades. The documented fallback is
    # hypothesis's own digest plus ours.
    test._hypothesis_internal_database_key = b"crdtool-fuzz\0" + digest  # type: ignore[attr-defined]
    test.hypothesis.inner_test._hypothesis_internal_add_digest = digest  # type: ignore[attr-defined]
    if seed is not None:
        # hypothesis.seed() would also switch the example database off; we want both a
        # reproducible generation and replayable failures, so set the seed alone.
        test._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    try:
        with _shrink_time_limit(shrink_seconds), engine_constant("MAX_SHRINKS", shrink_steps):
            test()
    except KeyboardInterrupt:
        raise
    except unittest.SkipTest:
        pass  # --replay with nothing saved: no example ran
    except BaseException as exc:  # noqa: BLE001 - hypothesis re-raises the shrunk failure (maybe grouped)
        failure = _find_failure(exc)
        if failure is not None:
            notes = ["the failure did not reproduce reliably (flaky: timing or non-determinism)"] if _is_flaky(exc) else []
            return failure, None, notes
        if isinstance(exc, HypothesisException):
            return None, f"could not generate valid {source.api_version} objects: {type(exc).__name__}: {exc}", []
        raise
    return None, None, []


@contextlib.contextmanager
def _shrink_time_limit(seconds: float | None) -> Iterator[None]:
    """Temporarily lower hypothesis's shrinking time limit (``engine.MAX_SHRINKING_SECONDS``).

    hypothesis has no setting for it; the module constant is read when
    shrinking starts and restored here afterwards. Without the constant (a
    future hypothesis) the limit is simply hypothesis's own.
    """
    try:
        from hypothesis.internal.conjecture import engine
    except ImportError:  # pragma: no cover - hypothesis reorganised
        engine = None  # type: ignore[assignment]  # optional import of a hypothesis internal module
    if seconds is None or engine is None or not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        yield
        return
    previous = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment]  # hypothesis declares int; it only adds it to a float time
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = previous


@contextlib.contextmanager
def engine_constant(name: str, value: int | None) -> Iterator[None]:
    """Temporarily set hypothesis's engine constant ``name`` (``MAX_SHRINKS``: how many successful shrinks
    end the shrinking, a bound that does not depend on time); None, or a hypothesis without it: unchanged."""
    try:
        from hypothesis.internal.conjecture import engine
    except ImportError:  # pragma: no cover - hypothesis reorganised
        yield
        return
    if value is None or not hasattr(engine, name):
        yield
        return
    previous = getattr(engine, name)
    setattr(engine, name, value)
    try:
        yield
    finally:
        setattr(engine, name, previous)


def _find_failure(exc: BaseException) -> Failure | None:
    stack: list[BaseException] = [exc]
    seen: set[int] = set()
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, _PropertyFailed):
            return e.failure
        stack.extend(getattr(e, "exceptions", ()))
        for linked in (e.__cause__, e.__context__):
            if linked is not None:
                stack.append(linked)
    return None


def _is_flaky(exc: BaseException) -> bool:
    return "Flaky" in type(exc).__name__
