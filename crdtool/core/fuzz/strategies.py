"""Hypothesis strategies for custom resources, built from a CRD version's structural schema.

Generates only objects the apiserver would accept unchanged at that version:
every candidate is defaulted (``schema/defaulting`` ``Default``) and then
passes :func:`crdtool.core.fuzz.check_object` (nothing pruned, value
validation, ObjectMeta, embedded resources, list-type uniqueness, CEL when
available). Most constraints are satisfied by construction so the final
filter rarely rejects:

* types (``string``, ``integer`` across the whole int64 range with the
  edges 0, +-1, +-2**31, 2**53 +- 1, int64 min/max weighted in, ``number``
  (finite floats and integers), ``boolean``, ``array``, ``object``);
* ``format`` (every format the apiserver checks, see ``schema/formats.py``),
  ``enum``, ``pattern`` (Go RE2 translated by ``python_regexp``, then
  hypothesis ``from_regex``), ``minimum``/``maximum`` (exclusive too),
  ``multipleOf``, ``minLength``/``maxLength``, ``minItems``/``maxItems``,
  ``minProperties``/``maxProperties``, ``required``; anything else
  (``allOf``/``anyOf``/``oneOf``/``not``) by filtering the node with the
  value validator;
* ``nullable`` (explicit ``null``), ``additionalProperties`` maps,
  ``x-kubernetes-int-or-string`` (integers and numeric-looking strings such as
  ``"10"`` and ``"50%"``), ``x-kubernetes-preserve-unknown-fields`` (extra
  fields holding arbitrary JSON), ``x-kubernetes-embedded-resource``
  (apiVersion, kind, metadata), ``x-kubernetes-list-type: set|map``
  (unique items / keys), empty objects and lists, absent optional fields;
* ``apiVersion``, ``kind`` and realistic ``metadata`` (name, namespace per
  scope, uid, resourceVersion, generation, creationTimestamp, labels,
  annotations), as a stored object has them.

Sizes are bounded by a :class:`Budget` that shrinks with depth, so large
schemas (thousands of properties) give objects of a few dozen fields.

Swarm testing: each object is drawn in one mode shared by all its nodes,
random or one kind of edge value everywhere (Go zero values, nulls, big
integers, numeric-looking strings, a mix), so the edge cases a converter
mishandles show up within the default 200 examples per pair (see
``_MODES``). Patterns are generated from the Go pattern itself when Python
accepts it, pre-checked with RE2 (linear time) when google-re2 is installed.

hypothesis-jsonschema was considered: it handles plain JSON Schema but not
the Kubernetes extensions (int-or-string, preserve-unknown-fields, embedded
resources, list-type maps), Go-RE2 patterns, the apiserver's formats or its
pruning, and it generates far larger objects than a budget allows, so the
strategies are written here on the structural model instead.

Import cost: hypothesis is imported at module import; import this module
lazily (the CLI does so inside the command).
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from crdtool.core.errors import Path
from crdtool.core.fuzz import ExtraValidator, VersionSchema, check_object
from crdtool.core.schema.defaulting import default
from crdtool.core.schema.formats import effective_format, normalize_format_name
from crdtool.core.schema.structural import Structural, ValueValidation
from crdtool.core.validation.value_validation import python_regexp, validate_value

__all__ = ["Budget", "DEFAULT_BUDGET", "any_json", "metadata_strategy", "object_strategy", "value_strategy"]

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
_INT_EDGES = (
    0, 1, -1, 2**31 - 1, -(2**31), 2**32, 2**53 - 1, 2**53, 2**53 + 1, -(2**53 + 1), 2**62, INT64_MAX, INT64_MIN,
)
_STRING_EDGES = ("", " ", " a", "a ", "0", "10", "-1", "50%", "1.5", "true", "null", "a b", "*")
_INT_OR_STRING_EDGES = ("0", "10", "50%", "100%", "-1", "1.5", "", "a")
_META_FIELDS = ("apiVersion", "kind", "metadata")
_NO_VV = ValueValidation()
# An optional field is present three times in four; it shrinks to absent.
_PRESENT = st.sampled_from((False, True, True, True))
_PRESENT_EDGES = st.sampled_from((False, True, True, True, True, True, True, True, True, True))
# Swarm testing: every generated object draws one mode, shared by all its nodes. In "random"
# mode (None) leaves are drawn freely; the other modes make every leaf take one kind of edge
# value and keep optional fields nearly always present, so a single example exercises the
# same edge case in every field at once and shrinking then removes the irrelevant fields:
#   zero     Go zero values: 0, "", false, [], {} (falsy-value bugs);
#   null     explicit null in every nullable field;
#   big      integers beyond 2**53 and at the int64 limits, 1e21;
#   numeric  numeric-looking strings: "10", "50%", "-1", "1.5" (parsing bugs);
#   edges    a mix of all edge values, whitespace-padded strings too.
# hypothesis on its own derives most examples from earlier ones by mutation, which leaves a
# field only a handful of distinct values in a few hundred examples; the modes make the
# edges the issue lists show up reliably at the default 200 examples per pair.
_MODES = (None, "zero", "null", "big", "numeric", "edges", None)
_EDGE_MODE = st.shared(st.sampled_from(_MODES), key="crdtool.fuzz.edge-mode")
_NUMBER_EDGES = (0, 0.0, 1, -1, 0.5, 1.5, -2.5, 1e-7, 1e21, 2**53 + 1, -(2**53 + 1))
_BIG_INTS = (2**53 + 1, -(2**53 + 1), INT64_MAX, INT64_MIN, 2**53 + 3)
_NUMERIC_STRINGS = ("10", "0", "-1", "1.5", "50%", "1e3", "007")


@dataclass(frozen=True)
class Budget:
    """Size limits per nesting depth (the last entry repeats for deeper levels).

    ``optional``: at most this many optional properties of an object;
    ``items``: at most this many items of a list (``minItems`` wins);
    ``entries``: at most this many entries of a map or unknown fields;
    ``string``: longest generated free-form string (``minLength`` wins).
    """

    optional: tuple[int, ...] = (12, 12, 6, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0)
    items: tuple[int, ...] = (5, 5, 3, 2, 2, 1)
    entries: tuple[int, ...] = (3, 2, 2, 1)
    string: int = 24

    def at(self, limits: tuple[int, ...], depth: int) -> int:
        return limits[min(depth, len(limits) - 1)]


DEFAULT_BUDGET = Budget()


def object_strategy(
    version: VersionSchema, *, extra: ExtraValidator | None = None, budget: Budget = DEFAULT_BUDGET
) -> SearchStrategy[dict[str, Any]]:
    """Custom resources at ``version`` that the apiserver would accept unchanged.

    In: a :class:`VersionSchema`; ``extra`` an optional additional validator
    (e.g. CEL, see :func:`crdtool.core.fuzz.cel_validator`). Out: a strategy
    of plain JSON dicts with ``apiVersion``, ``kind``, ``metadata`` and the
    schema's fields, already defaulted as the apiserver stores them. Each
    value is fresh (callers may mutate it).
    """
    builder = _Builder(budget)
    root = builder.root(version)
    schema = dict(version.schema) if version.schema is not None else None

    def finish(obj: dict[str, Any]) -> dict[str, Any]:
        return default(obj, schema) if schema is not None else obj

    return root.map(finish).filter(lambda obj: check_object(obj, version, extra=extra).ok)


def value_strategy(node: Structural | None, *, budget: Budget = DEFAULT_BUDGET) -> SearchStrategy[Any]:
    """Values valid for one structural (sub)schema: ``validate_value`` finds nothing, pruning drops nothing.

    ``node`` None means "no schema": arbitrary JSON scalars (what pruning
    keeps under a nil schema).
    """
    return _Builder(budget).node(node, 0)


# Metadata comes from small fixed pools, one draw per field: metadata is not what a conversion
# is about (it must pass through unchanged but for labels and annotations), and building
# names and maps character by character was half of the cost of generating an object. The
# first entry of each pool is the simplest (what shrinking ends at).
_NAMES = (
    "a", "my-new-cron-object", "web-1", "x.example.com", "0", "a-b.c-d", "v1.2.3",
    "n" * 63, ".".join(("a" * 63, "b" * 63, "c" * 63, "d" * 61)),  # the longest: 253 characters
)
_NAMESPACES = ("a", "default", "kube-system", "team-x", "ns" + "0" * 61)
_UIDS = (
    "6a5c2f1e-0d4b-4c6e-9a1f-3b2d7e8f9a01", "00000000-0000-4000-8000-000000000000",
    "f47ac10b-58cc-4372-a567-0e02b2c3d479", "9b2e4c1a-7d3f-4e8b-b6a5-1c0f2e3d4a5b",
)
_RESOURCE_VERSIONS = ("1", "42", "123456", "1099511627776")
_GENERATIONS = (1, 2, 7, 2**31)
_TIMESTAMPS = ("2024-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2021-06-15T13:45:30Z", "2099-12-31T23:59:59Z")
_LABELS = (
    {"app": "a"},
    {"app.kubernetes.io/name": "crontab", "tier": ""},
    {"a": "b", "example.com/Team": "X_y.z-1", "k8s.io/a-b": "0"},
    {"z" * 63: "v" * 63},
)
_ANNOTATIONS = (
    {"a": ""},
    {"example.com/note": "the quick brown fox", "kubectl.kubernetes.io/last-applied-configuration": '{"spec":{}}'},
    {"note": "ünïcødé ✓ \u00e9 \n", "b.example.org/x": " padded "},
    {"k": "x" * 300},
)


def metadata_strategy(
    *, namespaced: bool, name_schema: Mapping[str, Any] | None = None
) -> SearchStrategy[dict[str, Any]]:
    """``metadata`` of a stored custom resource, from small fixed pools of realistic values.

    Always name (DNS subdomain, also valid for ``name_schema`` when the CRD
    constrains ``metadata.name``), namespace when ``namespaced``, uid,
    resourceVersion, generation and creationTimestamp; optionally non-empty
    labels and annotations (ObjectMeta omits empty maps). One draw per field.
    """
    names: list[str] | None = list(_NAMES)
    generated: SearchStrategy[str] | None = None
    if name_schema:
        schema = dict(name_schema)

        def fits(n: str) -> bool:
            return _is_dns_subdomain(n) and not validate_value(n, schema, Path(""))

        names = [n for n in _NAMES if fits(n)] or None
        if names is None:  # the CRD's own name rules exclude the whole pool: generate names for them
            name = _dns_subdomain()
            pattern = name_schema.get("pattern")
            rx = _regex_for_generation(pattern) if isinstance(pattern, str) and pattern else None
            if rx is not None:
                name = st.one_of(name, st.from_regex(rx, fullmatch=True))
            generated = name.filter(fits)
    identities = _identities(names or ["a"], namespaced)
    labels = st.sampled_from((None, *_LABELS))
    annotations = st.sampled_from((None, *_ANNOTATIONS))

    def meta(identity: dict[str, Any], label_map: Any, annotation_map: Any, name: str | None = None) -> dict[str, Any]:
        out = dict(identity)
        if name is not None:
            out["name"] = name
        if label_map is not None:
            out["labels"] = dict(label_map)
        if annotation_map is not None:
            out["annotations"] = dict(annotation_map)
        return out

    if generated is not None:
        return st.builds(meta, st.sampled_from(identities), labels, annotations, generated)
    return st.builds(meta, st.sampled_from(identities), labels, annotations)


def _identities(names: list[str], namespaced: bool) -> list[dict[str, Any]]:
    """Combinations of the pools for the required metadata fields, the simplest first (one draw per object).

    Every value of every pool appears (the first rows walk the pools side by
    side), then rows of values picked by a fixed-seed random generator mix
    them; the list stays short and is the same in every run.
    """
    import random

    fields: list[tuple[str, tuple[Any, ...]]] = [("name", tuple(names))]
    if namespaced:
        fields.append(("namespace", _NAMESPACES))
    fields += [("uid", _UIDS), ("resourceVersion", _RESOURCE_VERSIONS), ("generation", _GENERATIONS),
               ("creationTimestamp", _TIMESTAMPS)]
    longest = max(len(pool) for _, pool in fields)
    rng = random.Random(0)
    rows = [{key: pool[i % len(pool)] for key, pool in fields} for i in range(longest)]
    rows += [{key: rng.choice(pool) for key, pool in fields} for _ in range(longest)]
    return rows


def any_json(max_leaves: int = 6) -> SearchStrategy[Any]:
    """Arbitrary JSON (what ``x-kubernetes-preserve-unknown-fields`` keeps verbatim)."""
    return st.recursive(
        _json_scalar(),
        lambda kids: st.one_of(
            st.lists(kids, max_size=3), st.dictionaries(st.text(_ALPHABET, max_size=8), kids, max_size=3)
        ),
        max_leaves=max_leaves,
    )


# --- names and scalars --------------------------------------------------------------------------

# Strings are JSON strings: no lone surrogates (they cannot be encoded in UTF-8). The same set as
# characters(codec="utf-8"), without hypothesis computing that codec's intervals (~1.5-4 s on each
# run with a fresh cache directory, e.g. in CI).
_ALPHABET = st.characters(exclude_categories=["Cs"])
_LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
_ALNUM = _LOWER_ALNUM + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# Names are built from plain character draws rather than from_regex: regex strategies
# dominated the cost of generating an object.
def _dns_label() -> SearchStrategy[str]:
    """An RFC 1123 label: ``[a-z0-9]([-a-z0-9]*[a-z0-9])?``."""
    return st.builds(
        lambda first, rest: first + rest.rstrip("-"),
        st.sampled_from(_LOWER_ALNUM),
        st.text(_LOWER_ALNUM + "-", max_size=12),
    )


def _dns_subdomain() -> SearchStrategy[str]:
    return st.lists(_dns_label(), min_size=1, max_size=3).map(".".join)


def _name_part() -> SearchStrategy[str]:
    """The name of a qualified name: ``[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?``."""
    return st.builds(
        lambda first, rest: first + rest.rstrip("-_."),
        st.sampled_from(_ALNUM),
        st.text(_ALNUM + "-_.", max_size=12),
    )


def _qualified_name() -> SearchStrategy[str]:
    """Label and annotation keys: ``[prefix/]name``."""
    prefix = st.one_of(st.just(""), _dns_subdomain().map(lambda p: p + "/"))
    return st.builds(lambda p, n: p + n, prefix, _name_part())


def _label_value() -> SearchStrategy[str]:
    return st.one_of(st.just(""), _name_part())


def _words() -> SearchStrategy[str]:
    token = st.text("*/,-0123456789abcxyz", max_size=3)
    return st.lists(token, min_size=2, max_size=6).map(" ".join)


def _is_dns_subdomain(name: str) -> bool:
    from crdtool.core.validation_util import is_dns1123_subdomain

    return not is_dns1123_subdomain(name)


def _json_scalar() -> SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(INT64_MIN, INT64_MAX),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(_ALPHABET, max_size=10),
    )


def _moded(normal: SearchStrategy[Any], **by_mode: SearchStrategy[Any] | None) -> SearchStrategy[Any]:
    """The strategy for the object's mode (see ``_MODES``); ``normal`` for modes not given."""
    table = {mode: strat for mode, strat in by_mode.items() if strat is not None}
    if not table:
        return normal

    @st.composite
    def pick(draw: Callable[[SearchStrategy[Any]], Any]) -> Any:
        return draw(table.get(draw(_EDGE_MODE), normal))

    return pick()


def _choice(values: Any) -> SearchStrategy[Any] | None:
    """``sampled_from`` of the values, or None when there are none (the mode then draws normally)."""
    values = list(values)
    return st.sampled_from(values) if values else None


def _nullable(base: SearchStrategy[Any]) -> SearchStrategy[Any]:
    """An explicit null: always in null mode, one time in two in edges mode, one in four at random, never in zero mode."""

    @st.composite
    def pick(draw: Callable[[SearchStrategy[Any]], Any]) -> Any:
        mode = draw(_EDGE_MODE)
        if mode == "null":
            return None
        if mode == "zero":
            return draw(base)
        is_null = draw(st.booleans()) if mode == "edges" else not draw(_PRESENT)
        return None if is_null else draw(base)

    return pick()


def _no_schema_value() -> SearchStrategy[Any]:
    """Values pruning keeps under a nil schema: scalars, lists of scalars, empty objects."""
    scalar = _json_scalar()
    return st.one_of(scalar, st.lists(scalar, max_size=3), st.just({}).map(dict))


def _python_regex(pattern: str) -> Any:
    """The Python translation of a Go regexp, or None when it cannot be expressed."""
    return python_regexp(pattern)


def _regex_for_generation(pattern: str) -> Any:
    """A regex hypothesis can generate from cheaply, for a Go pattern; None if there is none.

    The Go pattern itself when Python's ``re`` accepts it (most do; values
    are still checked with Go semantics by the value validator), else the
    translation, unless that spells out huge character classes (a negated
    class becomes ranges up to U+10FFFF, which hypothesis enumerates one
    character at a time).
    """
    try:
        re.compile(pattern)
        return pattern
    except (re.error, OverflowError, RecursionError):
        pass
    rx = _python_regex(pattern)
    if rx is None or "\\U" in rx.pattern:
        return None
    return rx


def _re2_matcher(pattern: str) -> Callable[[Any], bool] | None:
    """A linear-time pre-check of ``pattern`` (Go's regexp is RE2) for the generation filter, if google-re2 is there."""
    try:
        import re2

        compiled = re2.compile(pattern)
    except Exception:  # noqa: BLE001 - no re2, or a pattern it refuses: the value validator decides alone
        return None
    return lambda v: not isinstance(v, str) or compiled.search(v) is not None


def _no_surrogates(s: str) -> bool:
    return not any("\ud800" <= c <= "\udfff" for c in s)


def _canonical(v: Any) -> str:
    """A uniqueness key with Go's type distinctions (1, 1.0 and true differ)."""
    return json.dumps(_tagged(v), sort_keys=True)


def _tagged(v: Any) -> Any:
    if isinstance(v, bool):
        return ["b", v]
    if isinstance(v, int):
        return ["i", v]
    if isinstance(v, float):
        return ["f", v]
    if isinstance(v, dict):
        return {k: _tagged(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_tagged(x) for x in v]
    return v


# --- formats --------------------------------------------------------------------------------------


def _luhn_complete(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d = d - 9 if d > 9 else d
        total += d
    return digits + str((10 - total % 10) % 10)


def _isbn10(digits: str) -> str:
    check = sum((10 - i) * int(d) for i, d in enumerate(digits)) % 11
    c = (11 - check) % 11
    return digits + ("X" if c == 10 else str(c))


def _isbn13(digits: str) -> str:
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits))
    return digits + str((10 - total % 10) % 10)


def _go_duration() -> SearchStrategy[str]:
    part = st.tuples(st.integers(0, 10_000), st.sampled_from(("ns", "us", "ms", "s", "m", "h")))
    parts = st.lists(part, min_size=1, max_size=3).map(lambda ps: "".join(f"{n}{u}" for n, u in ps))
    return st.one_of(st.just("0"), parts, parts.map(lambda s: "-" + s))


def _rfc3339() -> SearchStrategy[str]:
    zone = st.one_of(st.just("Z"), st.sampled_from(("+00:00", "-07:00", "+05:30")))
    frac = st.one_of(st.just(""), st.integers(0, 999_999).map(lambda n: f".{n:06d}"))
    stamp = st.datetimes(min_value=_dt.datetime(1, 1, 1), max_value=_dt.datetime(9999, 12, 31))
    return st.builds(lambda d, f, z: d.strftime("%Y-%m-%dT%H:%M:%S").rjust(19, "0") + f + z, stamp, frac, zone)


def _format_strategies() -> dict[str, SearchStrategy[str]]:
    digits: Callable[[int], SearchStrategy[str]] = lambda n: st.from_regex(rf"[0-9]{{{n}}}", fullmatch=True)  # noqa: E731
    host = _dns_subdomain()
    ipv4 = st.ip_addresses(v=4).map(str)
    ipv6 = st.ip_addresses(v=6).map(str)
    octet = st.integers(0, 255)
    return {
        "bsonobjectid": st.from_regex(r"[0-9a-f]{24}", fullmatch=True),
        "uri": st.builds(lambda h, p: f"https://{h}/{p}", host, st.from_regex(r"[a-z0-9]{0,8}", fullmatch=True)),
        "email": st.builds(lambda u, h: f"{u}@{h}", st.from_regex(r"[a-z0-9][a-z0-9._+-]{0,8}", fullmatch=True), host),
        "hostname": host,
        "ipv4": ipv4,
        "ipv6": ipv6,
        "cidr": st.one_of(
            st.builds(lambda a, n: f"{a}/{n}", ipv4, st.integers(0, 32)),
            st.builds(lambda a, n: f"{a}/{n}", ipv6, st.integers(0, 128)),
        ),
        "mac": st.binary(min_size=6, max_size=6).map(lambda b: ":".join(f"{x:02x}" for x in b)),
        "uuid": st.uuids().map(str),
        "uuid3": st.uuids(version=3).map(str),
        "uuid4": st.uuids(version=4).map(str),
        "uuid5": st.uuids(version=5).map(str),
        "isbn10": digits(9).map(_isbn10),
        "isbn13": digits(12).map(_isbn13),
        "isbn": st.one_of(digits(9).map(_isbn10), digits(12).map(_isbn13)),
        "creditcard": digits(14).map(lambda d: _luhn_complete("4" + d)),
        "ssn": st.from_regex(r"[0-9]{3}-[0-9]{2}-[0-9]{4}", fullmatch=True),
        "hexcolor": st.from_regex(r"#(?:[0-9a-f]{3}|[0-9a-f]{6})", fullmatch=True),
        "rgbcolor": st.builds(lambda r, g, b: f"rgb({r},{g},{b})", octet, octet, octet),
        "byte": st.binary(max_size=18).map(lambda b: base64.b64encode(b).decode("ascii")),
        "password": st.text(_ALPHABET, max_size=16),
        "date": st.dates(min_value=_dt.date(1, 1, 1)).map(lambda d: d.strftime("%Y-%m-%d").rjust(10, "0")),
        "datetime": _rfc3339(),
        "duration": _go_duration(),
        "quantity": st.from_regex(r"[+-]?[0-9]{1,5}(?:\.[0-9]{1,3})?(?:m|k|M|G|T|Ki|Mi|Gi|Ti|e3|E6)?", fullmatch=True),
        "k8sshortname": _dns_label(),
        "k8slongname": _dns_subdomain(),
    }


# --- the builder ----------------------------------------------------------------------------------


def _ceil_bound(x: int | float, exclusive: bool) -> int:
    if isinstance(x, int) and not isinstance(x, bool):
        return x + 1 if exclusive else x
    c = math.ceil(x)
    return c + 1 if exclusive and c == x else c


def _floor_bound(x: int | float, exclusive: bool) -> int:
    if isinstance(x, int) and not isinstance(x, bool):
        return x - 1 if exclusive else x
    f = math.floor(x)
    return f - 1 if exclusive and f == x else f


class _Builder:
    """Builds (and caches) one strategy per schema node and depth bucket."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.cache: dict[tuple[int, int], SearchStrategy[Any]] = {}
        self.formats: dict[str, SearchStrategy[str]] | None = None
        self._keep: list[Any] = []  # nodes whose id() is a cache key stay alive

    # --- entry points

    def root(self, version: VersionSchema) -> SearchStrategy[dict[str, Any]]:
        s = version.structural
        meta_schema = s.properties.get("metadata") if s is not None else None
        name_node = meta_schema.properties.get("name") if meta_schema is not None else None
        name_schema = name_node.to_schema() if name_node is not None else None
        metadata = metadata_strategy(namespaced=version.namespaced, name_schema=name_schema)
        if s is None:
            body: SearchStrategy[dict[str, Any]] = st.dictionaries(_unknown_key(_META_FIELDS), any_json(), max_size=3)
        else:
            body = self._object(s, 0, skip=_META_FIELDS, preserve=not version.prunes)
        head = {"apiVersion": version.api_version, "kind": version.kind}
        return st.builds(lambda m, b: {**head, "metadata": m, **b}, metadata, body)

    def node(self, s: Structural | None, depth: int) -> SearchStrategy[Any]:
        if s is None:
            return _no_schema_value()
        bucket = min(depth, len(self.budget.optional))
        key = (id(s), bucket)
        cached = self.cache.get(key)
        if cached is None:
            self._keep.append(s)
            cached = st.deferred(lambda: self._build(s, depth))
            self.cache[key] = cached
        return cached

    # --- per node

    def _build(self, s: Structural, depth: int) -> SearchStrategy[Any]:
        vv = s.value_validation or _NO_VV
        x = s.extensions
        needs_filter = vv != _NO_VV
        if vv.enum is not None:
            values = list(vv.enum)
            base: SearchStrategy[Any] = st.sampled_from(values).map(_copy_json)
        elif x.x_int_or_string:
            base = self._int_or_string(s, vv)
        elif s.type == "string":
            base = self._string(vv, ("string",))
        elif s.type == "integer":
            base = self._integer(vv)
        elif s.type == "number":
            base = self._number(vv)
        elif s.type == "boolean":
            base = _moded(st.booleans(), zero=st.just(False))
        elif s.type == "array":
            base = self._array(s, vv, depth)
            needs_filter = _has_junctors(vv) or vv.unique_items
        elif s.type == "object" or x.x_embedded_resource:
            base = self._object(s, depth)
            needs_filter = _has_junctors(vv) or vv.min_properties is not None or vv.max_properties is not None
        elif x.x_preserve_unknown_fields:
            base = st.one_of(self._object(s, depth), any_json()) if s.properties else any_json()
        else:
            base = any_json()
        if needs_filter:
            schema = s.to_schema()
            schema.pop("nullable", None)
            linear = _re2_matcher(vv.pattern) if vv.pattern else None
            if linear is not None:
                # RE2 first: the value validator's backtracking regex can take exponential time
                # on a near-miss candidate; RE2 rejects it in linear time.
                base = base.filter(linear)
            base = base.filter(lambda v: not validate_value(v, schema, Path("")))
        if s.nullable:
            base = _nullable(base)
        return base

    def _int_or_string(self, s: Structural, vv: ValueValidation) -> SearchStrategy[Any]:
        ints = self._integer(vv) if vv.minimum is not None or vv.maximum is not None else st.one_of(
            st.integers(INT64_MIN, INT64_MAX), st.sampled_from(_INT_EDGES)
        )
        strings = st.one_of(
            st.sampled_from(_INT_OR_STRING_EDGES),
            st.integers(0, 1000).map(str),
            st.integers(0, 100).map(lambda n: f"{n}%"),
            self._string(vv, ("integer", "string")),
        )
        return _moded(
            st.one_of(ints, strings),
            zero=st.sampled_from((0, "")),
            big=st.sampled_from(_BIG_INTS),
            numeric=st.sampled_from(_INT_OR_STRING_EDGES[:5]),
            edges=st.sampled_from((0, 1, -1, 2**53 + 1, INT64_MAX, *_INT_OR_STRING_EDGES)),
        )

    def _string(self, vv: ValueValidation, types: tuple[str, ...]) -> SearchStrategy[str]:
        min_len = vv.min_length or 0
        cap = max(min_len, self.budget.string)
        max_len = min(vv.max_length, cap) if vv.max_length is not None else cap
        if max_len < min_len:
            return st.nothing()
        options: list[SearchStrategy[str]] = []
        rx = _regex_for_generation(vv.pattern) if vv.pattern else None
        if rx is not None:
            options.append(st.from_regex(rx, fullmatch=True).filter(_no_surrogates))
            options.append(st.from_regex(rx, fullmatch=False).filter(_no_surrogates))
        fmt = normalize_format_name(effective_format(types, vv.format))
        if fmt and not options:  # with a pattern, its candidates are only checked against the format
            if self.formats is None:
                self.formats = _format_strategies()
            if fmt in self.formats:
                options.append(self.formats[fmt])
        if options:
            return st.one_of(options)
        edges = [e for e in _STRING_EDGES if min_len <= len(e) <= max_len]
        options.append(st.text(_ALPHABET, min_size=min_len, max_size=max_len))
        if edges:
            options.append(st.sampled_from(edges))
        # Space-separated words (command lines, cron expressions): what a converter that
        # splits or joins strings sees in real objects, and random text rarely produces.
        options.append(_words().filter(lambda w: min_len <= len(w) <= max_len))
        fits: Callable[[Iterable[str]], list[str]] = lambda values: [v for v in values if min_len <= len(v) <= max_len]  # noqa: E731
        return _moded(
            st.one_of(options),
            zero=_choice(fits([""])),
            numeric=_choice(fits(_NUMERIC_STRINGS)),
            edges=_choice(edges),
        )

    def _integer(self, vv: ValueValidation) -> SearchStrategy[int]:
        lo, hi = INT64_MIN, INT64_MAX
        if vv.minimum is not None:
            lo = max(lo, _ceil_bound(vv.minimum, vv.exclusive_minimum))
        if vv.maximum is not None:
            hi = min(hi, _floor_bound(vv.maximum, vv.exclusive_maximum))
        if lo > hi:
            return st.nothing()
        m = vv.multiple_of
        if isinstance(m, int) and not isinstance(m, bool) and m > 0:
            k_lo, k_hi = -((-lo) // m), hi // m
            if k_lo > k_hi:
                return st.nothing()
            k_edges = sorted({k for k in (0, 1, -1, k_lo, k_hi) if k_lo <= k <= k_hi})
            ks = _moded(st.integers(k_lo, k_hi), zero=_choice(k for k in (0,) if k_lo <= k <= k_hi),
                        edges=st.sampled_from(k_edges))
            return ks.map(lambda k: k * m)
        edges = sorted({e for e in (*_INT_EDGES, lo, hi) if lo <= e <= hi})
        return _moded(
            st.one_of(st.integers(lo, hi), st.sampled_from(edges)),
            zero=_choice(e for e in (0,) if lo <= e <= hi),
            big=_choice(e for e in _BIG_INTS if lo <= e <= hi),
            edges=st.sampled_from(edges),
        )

    def _number(self, vv: ValueValidation) -> SearchStrategy[int | float]:
        lo = vv.minimum
        hi = vv.maximum
        m = vv.multiple_of
        if m:
            # multiples of m inside the bounds (float multiples may be rejected by the node filter)
            k_lo = math.ceil(lo / m) if lo is not None else -(2**53)
            k_hi = math.floor(hi / m) if hi is not None else 2**53
            if k_lo > k_hi:
                return st.nothing()
            return st.integers(max(k_lo, -(2**53)), min(k_hi, 2**53)).map(lambda k: k * m)
        floats = st.floats(
            min_value=float(lo) if lo is not None else None,
            max_value=float(hi) if hi is not None else None,
            exclude_min=bool(vv.exclusive_minimum and lo is not None),
            exclude_max=bool(vv.exclusive_maximum and hi is not None),
            allow_nan=False,
            allow_infinity=False,
        )
        within: Callable[[Iterable[float]], list[float]] = lambda values: [v for v in values if _in_bounds(v, vv)]  # noqa: E731
        return _moded(
            st.one_of(floats, self._integer(vv)),
            zero=_choice(within((0, 0.0))),
            big=_choice(within((1e21, -1e21, 2**53 + 1, 1.7976931348623157e308))),
            edges=_choice(within(_NUMBER_EDGES)),
        )

    def _array(self, s: Structural, vv: ValueValidation, depth: int) -> SearchStrategy[list[Any]]:
        item = self.node(s.items, depth + 1) if s.items is not None else _no_schema_value()
        min_size = vv.min_items or 0
        max_size = max(min_size, self.budget.at(self.budget.items, depth))
        if vv.max_items is not None:
            max_size = min(max_size, vv.max_items)
        if max_size < min_size:
            return st.nothing()
        unique_by: Callable[[Any], Any] | None = None
        list_type = s.extensions.x_list_type
        if list_type == "set" or vv.unique_items:
            unique_by = _canonical
        elif list_type == "map":
            unique_by = _map_key_of(s)
        if unique_by is None:
            lists = st.lists(item, min_size=min_size, max_size=max_size)
        else:
            lists = st.lists(item, min_size=min_size, max_size=max_size, unique_by=unique_by)
        if min_size:
            return lists
        return _moded(lists, zero=st.builds(list), edges=st.one_of(st.builds(list), lists))

    def _object(
        self, s: Structural, depth: int, *, skip: tuple[str, ...] = (), preserve: bool = False
    ) -> SearchStrategy[dict[str, Any]]:
        vv = s.value_validation or _NO_VV
        embedded = s.extensions.x_embedded_resource and not skip  # the resource root gets its own head
        skipped = set(skip) | (set(_META_FIELDS) if embedded else set())
        props = {k: v for k, v in s.properties.items() if k not in skipped}
        required = [k for k in vv.required if k not in skipped]
        optional = [k for k in props if k not in required]
        ap = s.additional_properties
        ap_node = ap if isinstance(ap, Structural) else None
        preserve = preserve or s.extensions.x_preserve_unknown_fields
        entries = self.budget.at(self.budget.entries, depth)
        n_optional = min(len(optional), self.budget.at(self.budget.optional, depth))
        min_optional = min(n_optional, max(0, (vv.min_properties or 0) - len(required)))

        strategies: dict[str, SearchStrategy[Any]] = {}
        for k in required:
            if k in props:
                strategies[k] = self.node(props[k], depth + 1)
            elif ap_node is not None or ap is True:
                strategies[k] = self.node(ap_node, depth + 1)
            elif preserve:
                strategies[k] = any_json()
            else:
                return st.nothing()  # pruned away, so never present: upstream rejects every object
        for k in optional:
            strategies[k] = self.node(props[k], depth + 1)
        extra_values: SearchStrategy[Any] | None = None
        if ap_node is not None or ap is True:
            extra_values = self.node(ap_node, depth + 1)
        elif preserve:
            extra_values = any_json()
        head = self._embedded_head(props, s.properties, depth) if embedded else None
        order = list(s.properties)
        taken = set(props) | set(_META_FIELDS if embedded else ())

        @st.composite
        def build(draw: Callable[[SearchStrategy[Any]], Any]) -> dict[str, Any]:
            mode = draw(_EDGE_MODE)
            out: dict[str, Any] = {}
            if head is not None:
                out["apiVersion"] = draw(head[0])
                out["kind"] = draw(head[1])
                if draw(_PRESENT):
                    out["metadata"] = draw(head[2])
            chosen = set(required)
            if optional and n_optional == len(optional):
                # Few enough: each optional field is present or absent on its own (shrinks to absent).
                # Top-level fields (spec, status) are what objects are about: nearly always there.
                present = _PRESENT_EDGES if mode is not None or depth == 0 else _PRESENT
                chosen.update(k for k in optional if draw(present))
            elif optional and n_optional:
                chosen.update(
                    draw(st.lists(st.sampled_from(optional), unique=True, min_size=min_optional, max_size=n_optional))
                )
            for k in order:
                if k in chosen:
                    out[k] = draw(strategies[k])
            for k in required:
                if k not in out:
                    out[k] = draw(strategies[k])
            empty_map = mode == "zero" or (mode == "edges" and draw(st.booleans()))
            if extra_values is not None and entries and not empty_map:
                extra = draw(st.dictionaries(_unknown_key(taken | set(out)), extra_values, max_size=entries))
                for k, v in extra.items():
                    out.setdefault(k, v)
            return out

        return build()

    def _embedded_head(
        self, props: dict[str, Structural], all_props: Mapping[str, Structural], depth: int
    ) -> tuple[SearchStrategy[str], SearchStrategy[str], SearchStrategy[dict[str, Any]]]:
        """Strategies for apiVersion, kind and metadata of an embedded resource."""
        version = st.builds(lambda n, s: f"v{n}{s}", st.integers(1, 3), st.sampled_from(("", "alpha1", "beta2")))
        api_version = st.one_of(
            st.sampled_from(("v1", "apps/v1", "batch/v1")),
            st.builds(lambda g, v: f"{g}/{v}", _dns_subdomain(), version),
        )
        kind = st.builds(lambda first, rest: first + rest, st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                         st.text(_ALNUM, max_size=12))
        metadata = st.fixed_dictionaries(
            {"name": _dns_subdomain()},
            optional={
                "namespace": _dns_label(),
                "labels": st.dictionaries(_qualified_name(), _label_value(), min_size=1, max_size=2),
                "annotations": st.dictionaries(_qualified_name(), st.text(_ALPHABET, max_size=10), min_size=1, max_size=2),
            },
        )
        for key, strat in (("apiVersion", api_version), ("kind", kind)):
            node = all_props.get(key)
            if node is not None and node.value_validation is not None and node.value_validation != _NO_VV:
                schema = node.to_schema()
                # Typed defs rather than lambdas: mypy cannot type a lambda with a default argument.
                if key == "apiVersion":
                    def valid_api_version(v: Any, sc: dict[str, Any] = schema) -> str | bool:
                        return isinstance(v, str) and v and v.count("/") <= 1 and not validate_value(v, sc, Path(""))

                    api_version = st.one_of(strat, self.node(node, depth + 1)).filter(valid_api_version)
                else:
                    def valid_kind(v: Any, sc: dict[str, Any] = schema) -> bool:
                        return isinstance(v, str) and bool(v) and not validate_value(v, sc, Path(""))

                    kind = st.one_of(strat, self.node(node, depth + 1)).filter(valid_kind)
        return api_version, kind, metadata


def _in_bounds(v: int | float, vv: ValueValidation) -> bool:
    if vv.minimum is not None and (v < vv.minimum or (vv.exclusive_minimum and v == vv.minimum)):
        return False
    if vv.maximum is not None and (v > vv.maximum or (vv.exclusive_maximum and v == vv.maximum)):
        return False
    return True


def _has_junctors(vv: ValueValidation) -> bool:
    return bool(vv.all_of or vv.any_of or vv.one_of or vv.not_ is not None)


def _map_key_of(s: Structural) -> Callable[[Any], Any]:
    """Uniqueness key of a list-type map item: its key fields, defaults applied (upstream ``listtype``)."""
    keys = s.extensions.x_list_map_keys
    item = s.items
    defaults = {k: (item.properties[k].default if item is not None and k in item.properties else None) for k in keys}

    def key(v: Any) -> Any:
        if not isinstance(v, dict):
            return _canonical(v)
        return tuple(_canonical(v.get(k, defaults[k])) for k in keys)

    return key


def _unknown_key(taken: set[str] | tuple[str, ...]) -> SearchStrategy[str]:
    used = set(taken)
    return st.text(_ALPHABET, min_size=1, max_size=10).filter(lambda k: k not in used)


def _copy_json(v: Any) -> Any:
    return json.loads(json.dumps(v))
