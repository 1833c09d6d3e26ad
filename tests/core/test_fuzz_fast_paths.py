"""The shortcuts ``fuzz-roundtrip`` takes for speed (issue #28) against the exact paths they replace.

- ``object_meta_round_trip`` checks the whole ``metadata`` mapping before looking field by field for the one
  that does not decode: the same error, the same result, as the field-by-field walk;
- the RFC 3339 readers (``gotime.rfc3339_parse_error``, ``rfc3339_instant``) are memoised: the same answers as
  the functions themselves;
- ``check_example`` works out the served metadata of the generated, converted and converted-back objects
  once each (``_remember_served``): the same verdict as working it out at every use, also for a converter that
  changes the object it returned earlier (what it returns is copied before it is checked).
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core import gotime
from crdtool.core.errors import Path
from crdtool.core.fuzz import properties
from crdtool.core.fuzz.properties import check_example
from crdtool.core.schema.objectmeta import (
    OBJECT_META_FIELDS,
    get_object_meta_error,
    object_meta_round_trip,
    unmarshal_type_error,
)
from tests.core.test_fuzz_properties import CRONTAB_VERSIONS, crontab, crontab_conversion  # samples/ on the path

_TIMES = ["2024-01-02T03:04:05Z", "2024-01-02T03:04:05.5+01:00", "0001-01-01T00:00:00Z", "2024-13-01T00:00:00Z",
          "2024-01-02", "2024-01-02T03:04:05", "not a time", "", "2024-02-30T00:00:00Z", "9999-12-31T23:59:59-23:59"]
_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from(_TIMES), st.text(max_size=3), st.lists(st.one_of(st.none(), st.text(max_size=2), st.integers(0, 2)),
                                                           max_size=2),
    st.dictionaries(st.text(max_size=2), st.one_of(st.none(), st.text(max_size=2), st.integers(0, 2)), max_size=2),
    st.lists(st.one_of(st.none(), st.fixed_dictionaries({"name": st.text(max_size=2)})), max_size=2),
)
_METAS = st.dictionaries(st.sampled_from([*OBJECT_META_FIELDS, "bogus"]), _VALUES, max_size=6)


def _field_by_field_error(value: dict[str, Any], path: Path) -> Any:
    """The error ``object_meta_round_trip`` reported before the shortcut: the first field that does not decode."""
    for key in value:
        if key in OBJECT_META_FIELDS:
            message = get_object_meta_error({key: value[key]})
            if message:
                return unmarshal_type_error(path.child(key), value[key], message)
    return None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_METAS)
def test_object_meta_round_trip_reports_the_field_by_field_error(meta: dict[str, Any]) -> None:
    path = Path("metadata")
    expected = _field_by_field_error(meta, path)
    got = object_meta_round_trip(meta, path)
    assert str(got.error) == str(expected) and repr(got.error) == repr(expected)
    if expected is not None:
        assert got.meta is None and got.unknown == []
    else:
        assert got.meta is not None


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.one_of(st.sampled_from(_TIMES), st.text(alphabet="0123456789-:TZ.+ ", max_size=26)))
def test_memoised_rfc3339_readers_answer_as_the_functions(text: str) -> None:
    for _ in range(2):  # a miss, then a hit
        assert gotime.rfc3339_parse_error(text) == gotime.rfc3339_parse_error.__wrapped__(text)
        assert gotime.rfc3339_instant(text) == gotime._rfc3339_instant.__wrapped__(text)
    assert gotime.rfc3339_instant(None) is None and gotime.rfc3339_instant(20240102) is None


def _lossless(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    return crontab_conversion.convert_lossless(copy.deepcopy(obj), desired)


def _renaming(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = _lossless(obj, desired)
    out["metadata"]["name"] = "other"
    return out


def _dropping_timestamp(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = _lossless(obj, desired)
    out["metadata"].pop("creationTimestamp", None)
    return out


def _labelling(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = _lossless(obj, desired)
    out["metadata"]["labels"] = {"a": "b"}
    return out


class _Sneaky:
    """Changes the metadata of the object it returned last time when it is called again."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None

    def __call__(self, obj: dict[str, Any], desired: str) -> dict[str, Any]:
        if self.last is not None:
            self.last["metadata"]["generation"] = 7
            self.last["metadata"]["creationTimestamp"] = "2020-01-01T00:00:00Z"
        out = _lossless(obj, desired)
        self.last = out
        return out


def _verdicts(monkeypatch: Any, remember: bool) -> list[Any]:
    spec = {"cronSpec": "* * * * */5", "image": "nginx"}
    objects = [crontab("v1", spec), crontab("v1", spec, labels={"x": "y"}, annotations={}, finalizers=[]),
               crontab("v1", spec, creationTimestamp=None, generation=0)]
    out: list[Any] = []
    with monkeypatch.context() as m:
        if not remember:
            m.setattr(properties, "_remember_served", lambda obj, known: None)  # every use works it out
        for convert in (_lossless, _renaming, _dropping_timestamp, _labelling, _Sneaky()):
            for obj in objects:
                before = copy.deepcopy(obj)
                for target in CRONTAB_VERSIONS:
                    failure = check_example(convert, obj, CRONTAB_VERSIONS[0], target, timeout=None)
                    out.append(None if failure is None else asdict(failure))
                assert obj == before
    return out


def test_check_example_with_served_metadata_remembered_gives_the_same_verdicts(monkeypatch: Any) -> None:
    exact = _verdicts(monkeypatch, remember=False)
    assert _verdicts(monkeypatch, remember=True) == exact
    failed = [v["property"] for v in exact if v is not None]
    assert "metadata" in failed and None in exact  # both verdicts are met
