"""The round-trip properties, the failure model and the runner of ``crdtool fuzz-roundtrip``.

The broken converters in ``tests/fuzz_converters`` must each be caught by the
property the issue names; correct converters must never fail, whatever the seed.
"""

from __future__ import annotations

import copy
import importlib
import signal
import sys
import threading
import time
from pathlib import Path as FsPath
from typing import Any

import pytest
import yaml

from crdtool.core.fuzz import VersionSchema, versions_from_crd
from crdtool.core.fuzz.properties import (
    Failure,
    PairResult,
    check_example,
    diff_text,
    guarded_call,
    json_equal,
    metadata_problems,
    run_pair,
    run_source,
)
from tests.fuzz_converters import EXPECTED

ROOT = FsPath(__file__).resolve().parents[2]
WIDGET = ROOT / "tests" / "fuzz_converters" / "widget-crd.yaml"
CRONTAB = ROOT / "samples" / "crontab-multiversion-v1.yaml"

sys.path.insert(0, str(ROOT / "samples"))
import crontab_conversion  # noqa: E402


def load_versions(path: FsPath) -> list[VersionSchema]:
    return versions_from_crd(yaml.safe_load(path.read_text(encoding="utf-8")))


WIDGET_VERSIONS = load_versions(WIDGET)
CRONTAB_VERSIONS = load_versions(CRONTAB)
V1, V2 = CRONTAB_VERSIONS


def crontab(version: str, spec: dict[str, Any] | None = None, **meta: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": f"stable.example.com/{version}",
        "kind": "CronTab",
        "metadata": {"name": "my-cron", "namespace": "default", "uid": "3f0e8c4e-5c1b-4d0e-9d1a-0a1b2c3d4e5f",
                     "resourceVersion": "42", "generation": 1, "creationTimestamp": "2024-01-02T03:04:05Z", **meta},
    }
    if spec is not None:
        obj["spec"] = spec
    return obj


def run_all_pairs(convert: Any, versions: list[VersionSchema], *, examples: int, seed: int,
                  stop_at_first: bool = False, timeout: float = 2.0, same_first: bool = False) -> list[PairResult]:
    cross = [(a, b) for a in versions for b in versions if a is not b]
    same = [(a, a) for a in versions]
    pairs = same + cross if same_first else cross + same
    results = []
    for a, b in pairs:
        r = run_pair(convert, a, b, examples=examples, seed=seed, timeout=timeout, shrink_seconds=0.5)
        results.append(r)
        if stop_at_first and r.failure is not None:
            break
    return results


# --- JSON equality and diffs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, equal",
    [
        ({"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}, True),  # key order does not matter
        ([1, 2], [2, 1], False),  # list order does
        (1, 1.0, True),  # Go re-encodes 1.0 as 1
        (1, True, False),
        (0, False, False),
        (None, {}, False),
        ("", None, False),
        (2**53 + 1, float(2**53 + 1), False),  # precision lost through a float
        ({"a": None}, {}, False),  # an explicit null is not absence
        ({"a": {"b": [{"c": "10"}]}}, {"a": {"b": [{"c": 10}]}}, False),
    ],
)
def test_json_equal(a: Any, b: Any, equal: bool) -> None:
    assert json_equal(a, b) is equal
    assert json_equal(b, a) is equal


def test_json_equal_is_iterative() -> None:
    deep: Any = 1
    for _ in range(50_000):
        deep = [deep]
    assert json_equal(deep, copy.deepcopy(deep) if False else deep)


def test_diff_text_reads_like_a_change_list() -> None:
    text = diff_text({"spec": {"count": 2**53 + 1, "tags": ["a"]}}, {"spec": {"count": float(2**53 + 1), "tags": []}})
    assert "root['spec']['count'] changed from 9007199254740993 to 9007199254740992" in text
    assert "root['spec']['tags'][0]" in text
    assert diff_text({"a": 1}, {"a": 1.0}) == "(no difference deepdiff can show)"


# --- the guarded call ------------------------------------------------------------------------------------


def _raises(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    return obj["spec"]["missing"]


def test_exception_reports_the_traceback_inside_the_user_code() -> None:
    out = guarded_call(_raises, {"spec": {}}, "x/v1", 1.0)
    assert out.problem == "raised KeyError: 'missing'"
    assert out.traceback is not None
    assert "in _raises" in out.traceback and "obj[\"spec\"][\"missing\"]" in out.traceback
    assert "crdtool/core/fuzz" not in out.traceback  # crdtool's own frames are cut


def test_timeout_interrupts_the_call_and_shows_where() -> None:
    def stuck(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        while True:
            time.sleep(0.01)

    start = time.monotonic()
    out = guarded_call(stuck, {}, "x/v1", 0.2)
    assert time.monotonic() - start < 2
    assert out.problem == "did not finish within 0.2 s (timeout)"
    assert out.traceback is not None and "in stuck" in out.traceback


def test_timeout_survives_except_exception_in_user_code() -> None:
    def swallowing(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        try:
            time.sleep(5)
        except Exception:  # noqa: BLE001 - the point of the test
            return {}
        return {}

    out = guarded_call(swallowing, {}, "x/v1", 0.1)
    assert out.problem is not None and "timeout" in out.problem


def test_a_late_return_is_a_timeout_even_if_the_signal_was_swallowed() -> None:
    def greedy(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        try:
            time.sleep(0.5)
        except BaseException:  # noqa: BLE001 - swallows the timeout on purpose
            time.sleep(0.1)
        return {}

    out = guarded_call(greedy, {}, "x/v1", 0.1)
    assert out.problem is not None and out.problem.startswith("took ")


def test_timeout_off_the_main_thread_uses_a_worker_thread() -> None:
    def slow(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        time.sleep(1.0)
        return {}

    box: dict[str, Any] = {}
    t = threading.Thread(target=lambda: box.setdefault("out", guarded_call(slow, {}, "x/v1", 0.1)))
    t.start()
    t.join(5)
    out = box["out"]
    assert out.problem == "did not finish within 0.1 s (timeout)"
    assert "in slow" in (out.traceback or "")


def test_previous_alarm_handler_and_timer_are_restored() -> None:
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        out = guarded_call(lambda o, d: {"ok": True}, {}, "x/v1", 5.0)
        assert out.value == {"ok": True}
        time.sleep(0.5)
        assert fired == [1]  # the caller's timer still fired, into the caller's handler
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "result, problem",
    [
        (None, "returned None, not a dict"),
        ([], "returned list, not a dict"),
        ('{"a": 1}', "returned str, not a dict"),
        ({"a": {1, 2}}, "returned an object that is not JSON: set at a"),
        ({"a": [float("nan")]}, "returned an object that is not JSON: nan at a[0]"),
        ({1: "x"}, "returned an object that is not JSON: key 1 (int) at <root>"),
    ],
)
def test_result_must_be_a_json_object(result: Any, problem: str) -> None:
    assert guarded_call(lambda o, d: result, {}, "x/v1", 1.0).problem == problem


def test_tuples_are_json_lists_and_stdout_is_discarded(capsys: pytest.CaptureFixture[str]) -> None:
    def noisy(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        print("debugging output")
        return {"a": (1, 2)}

    out = guarded_call(noisy, {}, "x/v1", 1.0)
    assert out.problem is None and out.value == {"a": [1, 2]}
    assert "debugging output" not in capsys.readouterr().out


def test_system_exit_is_reported_and_keyboard_interrupt_propagates() -> None:
    assert guarded_call(lambda o, d: sys.exit(3), {}, "x/v1", 1.0).problem == "raised SystemExit: 3"

    def interrupted(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        guarded_call(interrupted, {}, "x/v1", 1.0)


# --- metadata (property 2) ------------------------------------------------------------------------------


REJECTS = " (the apiserver rejects the conversion)"
RESTORES = " (the apiserver silently restores it)"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda o: o.update(apiVersion="stable.example.com/v1"),
         "invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)" + REJECTS),
        (lambda o: o.pop("apiVersion"), "invalid groupVersion (expected stable.example.com/v2, received )" + REJECTS),
        (lambda o: o.update(kind="CronJob"), "invalid kind (expected CronTab, received CronJob)" + REJECTS),
        (lambda o: o["metadata"].update(name="other"), "must have the same name: my-cron != other" + REJECTS),
        (lambda o: o["metadata"].pop("namespace"), "must have the same namespace: default != " + REJECTS),
        (lambda o: o["metadata"].update(uid="x"),
         "must have the same UID: 3f0e8c4e-5c1b-4d0e-9d1a-0a1b2c3d4e5f != x" + REJECTS),
        (lambda o: o["metadata"].update(resourceVersion="43"), 'metadata.resourceVersion changed from "42" to "43"' + RESTORES),
        (lambda o: o["metadata"].pop("generation"), "metadata.generation changed from 1 to absent" + RESTORES),
        (lambda o: o["metadata"].update(finalizers=["a/b"]), 'metadata.finalizers changed from absent to ["a/b"]' + RESTORES),
        (lambda o: o["metadata"].update(labels={"a": "b/c"}), 'metadata.labels: Invalid value: "b/c": '),
        (lambda o: o["metadata"].update(labels={"a": 1}),
         "metadata.labels[a] must be a string, but is int64 in converted object" + REJECTS),
        (lambda o: o["metadata"].update(annotations=["x"]),
         "invalid metadata.annotations of type []interface {} in converted object" + REJECTS),
        # upstream validates annotations under the path "metadata.annotation"
        (lambda o: o["metadata"].update(annotations={"bad key!": "v"}), 'metadata.annotation: Invalid value: "bad key!": '),
        (lambda o: o.update(metadata=None), "missing metadata in converted object" + REJECTS),
        (lambda o: o.update(metadata=[]), "invalid metadata of type []interface {} in converted object" + REJECTS),
    ],
)
def test_metadata_problems(change: Any, message: str) -> None:
    original = crontab("v1")
    converted = copy.deepcopy(original)
    converted["apiVersion"] = "stable.example.com/v2"
    assert metadata_problems(original, converted, "stable.example.com/v2") == []
    change(converted)
    problems = metadata_problems(original, converted, "stable.example.com/v2")
    assert any(p.startswith(message) for p in problems), problems


def test_labels_and_annotations_may_change() -> None:
    original = crontab("v1", labels={"a": "b"})
    converted = copy.deepcopy(original)
    converted["apiVersion"] = "stable.example.com/v2"
    converted["metadata"]["labels"] = {"a": "c", "d": ""}
    converted["metadata"]["annotations"] = {"example.com/stash": "{}"}
    assert metadata_problems(original, converted, "stable.example.com/v2") == []


# --- one example, every property ---------------------------------------------------------------------------


def test_the_keps_own_example_round_trips() -> None:
    obj = crontab("v1", {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image"})
    assert check_example(crontab_conversion.convert, obj, V1, V2) is None


def test_literal_converter_fails_on_a_cronspec_without_five_parts() -> None:
    obj = crontab("v1", {"cronSpec": "@hourly", "image": "x"})
    failure = check_example(crontab_conversion.convert, obj, V1, V2, timeout=1.0)
    assert failure is not None and failure.property == "call"
    assert failure.error is not None
    assert failure.error.startswith(
        "convert(<stable.example.com/v1 object>, 'stable.example.com/v2') raised ValueError: "
        "invalid spec string, needs five parts: @hourly"
    )
    assert "convert_cron_v1_to_v2" in failure.error  # the user's traceback
    assert failure.input == obj and failure.converted is None and failure.roundtrip is None


def test_literal_converter_loses_spaces_in_v2_fields() -> None:
    obj = crontab("v2", {"min": "0 0", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "*", "image": "x"})
    failure = check_example(crontab_conversion.convert, obj, V2, V1)
    assert failure is not None and failure.property == "call"  # "0 0 * * * *" has six parts
    obj["spec"]["min"] = "0"
    del obj["spec"]["image"]
    failure = check_example(crontab_conversion.convert, obj, V2, V1)
    assert failure is not None and failure.property == "roundtrip"  # image comes back as ""
    assert failure.roundtrip["spec"]["image"] == ""
    assert "Item root['spec']['image'] (\"\") added to dictionary." in failure.diff


def test_lossless_converter_keeps_what_the_other_version_cannot_hold() -> None:
    for obj, a, b in [
        (crontab("v1", {"cronSpec": "@hourly"}), V1, V2),
        (crontab("v1", {"cronSpec": ""}), V1, V2),
        (crontab("v1", {"image": "x"}), V1, V2),
        (crontab("v2", {"min": "0 0", "hour": "*"}), V2, V1),
        (crontab("v2", {"min": "", "hour": "", "dayOfMonth": "", "month": "", "dayOfWeek": ""}), V2, V1),
        (crontab("v2", {"min": "*", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "*/5"}, annotations={"k": "v"}), V2, V1),
    ]:
        assert check_example(crontab_conversion.convert_lossless, obj, a, b) is None, obj
    converted = crontab_conversion.convert_lossless(crontab("v1", {"cronSpec": "@hourly"}), V2.api_version)
    assert converted["metadata"]["annotations"] == {crontab_conversion.STASH_CRONSPEC: "@hourly"}


def test_same_version_must_come_back_unchanged() -> None:
    def normalises(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        out = copy.deepcopy(obj)
        out.setdefault("spec", {})["image"] = "busybox"
        return out

    failure = check_example(normalises, crontab("v1", {}), V1, V1)
    assert failure is not None and failure.property == "unchanged"
    assert failure.error == "an object already at stable.example.com/v1 came back changed"
    assert "root['spec']['image']" in failure.diff


def test_schema_property_reports_pruned_and_invalid_fields() -> None:
    def adds(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        out = crontab_conversion.convert_lossless(obj, desired)
        out.setdefault("spec", {})["cronSpec" if desired.endswith("v2") else "min"] = "x"
        out["spec"]["image"] = 5
        return out

    failure = check_example(adds, crontab("v1", {}), V1, V2)
    assert failure is not None and failure.property == "schema"
    assert failure.error == (
        "fields the v2 schema does not specify would be pruned by the apiserver: spec.cronSpec\n"
        'invalid for the v2 schema: spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"'
    )
    assert "root['spec']['cronSpec']" in failure.diff


def test_the_conversion_back_is_checked_too() -> None:
    def breaks_back(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        out = crontab_conversion.convert_lossless(obj, desired)
        if desired.endswith("v1"):
            out["apiVersion"] = "stable.example.com/v3"
        return out

    failure = check_example(breaks_back, crontab("v1", {}), V1, V2)
    assert failure is not None and failure.property == "metadata"
    assert failure.error == (
        "converting back (v2 -> v1): invalid groupVersion (expected stable.example.com/v1, received "
        "stable.example.com/v3) (the apiserver rejects the conversion)"
    )
    assert failure.roundtrip is not None and failure.converted is not None


def test_failure_json_shape() -> None:
    f = Failure("roundtrip", "v1", "v2", {"a": 1}, {"b": 1}, {"a": 2}, "diff", None)
    assert f.to_dict() == {"property": "roundtrip", "from": "v1", "to": "v2", "input": {"a": 1},
                           "converted": {"b": 1}, "roundtrip": {"a": 2}, "diff": "diff", "error": None}


# --- the runner: done-when of the issue ---------------------------------------------------------------------


def test_literal_crontab_converter_fails_with_a_shrunk_example() -> None:
    results = run_all_pairs(crontab_conversion.convert, CRONTAB_VERSIONS, examples=100, seed=0)
    by_pair = {(r.from_version, r.to_version): r for r in results}
    assert by_pair[("v1", "v1")].ok and by_pair[("v2", "v2")].ok
    v1_v2 = by_pair[("v1", "v2")].failure
    v2_v1 = by_pair[("v2", "v1")].failure
    assert v1_v2 is not None and v1_v2.property == "call"
    assert v2_v1 is not None and v2_v1.property == "roundtrip"
    # shrunk: the smallest object breaking it has no spec at all (Go decodes it to empty strings)
    for f in (v1_v2, v2_v1):
        assert "spec" not in f.input
        assert f.input["metadata"]["name"] == "a"


def test_lossless_crontab_converter_passes_every_pair() -> None:
    # benchmarks/bench_fuzz.py runs the 1,000 examples per pair; 300 keep the suite fast.
    results = run_all_pairs(crontab_conversion.convert_lossless, CRONTAB_VERSIONS, examples=300, seed=1)
    assert [(r.from_version, r.to_version, r.ok) for r in results] == [
        ("v1", "v2", True), ("v2", "v1", True), ("v1", "v1", True), ("v2", "v2", True)
    ]
    assert all(r.examples == 300 for r in results)


def _converter(target: str) -> Any:
    module, fn = target.split(":")
    return getattr(importlib.import_module(f"tests.fuzz_converters.{module}"), fn)


@pytest.mark.parametrize("target, expected", sorted(EXPECTED.items()))
def test_broken_converter_is_caught_by_the_expected_property(target: str, expected: str) -> None:
    # 600 examples per pair: the rarest bug here (a digit-only string in an int-or-string field) took
    # up to 336 examples over seeds 1-5; a budget near that flaked. A 2 s timeout: under load a slow
    # call must not pass for a hang.
    results = run_all_pairs(_converter(target), WIDGET_VERSIONS, examples=600, seed=2, stop_at_first=True,
                            timeout=2.0, same_first=expected == "unchanged")
    failures = [r.failure for r in results if r.failure is not None]
    assert failures, f"{target} was not caught"
    assert failures[0].property == expected, failures[0]


@pytest.mark.parametrize("target, seed", [("correct:convert", 3), ("correct:convert_via_json", 4), ("correct:convert", 5)])
def test_correct_converters_never_fail(target: str, seed: int) -> None:
    results = run_all_pairs(_converter(target), WIDGET_VERSIONS, examples=50, seed=seed)
    assert [r.failure for r in results] == [None] * 4
    assert all(r.ok for r in results)


def test_seed_makes_a_run_reproducible() -> None:
    # Shrinking bounded by steps, not seconds: a time limit cuts it where the machine's load lets it (two runs
    # on a busy machine gave two differently shrunk failures), a number of shrinks does not.
    def first_failure() -> Any:
        r = run_pair(_converter("edge_cases:drop_null"), *WIDGET_VERSIONS, examples=200, seed=11, shrink_seconds=None,
                     shrink_steps=20)
        return r.failure.input if r.failure else None

    a, b = first_failure(), first_failure()
    assert a is not None and a == b
    assert a["spec"] == {"size": 0, "count": 0, "note": None}  # shrunk to the null the converter drops


def test_shrink_steps_is_restored() -> None:
    from hypothesis.internal.conjecture import engine

    before = engine.MAX_SHRINKS
    run_pair(_converter("identity:keep_api_version"), *WIDGET_VERSIONS, examples=5, seed=1, shrink_steps=3)
    assert engine.MAX_SHRINKS == before


def test_failures_are_saved_and_replayed() -> None:
    from hypothesis.database import InMemoryExampleDatabase

    db = InMemoryExampleDatabase()
    convert = _converter("edge_cases:drop_empty_object")
    first = run_pair(convert, *WIDGET_VERSIONS, examples=300, seed=2, database=db, key=b"t", shrink_seconds=2.0)
    assert first.failure is not None
    replayed = run_pair(convert, *WIDGET_VERSIONS, examples=300, seed=99, database=db, key=b"t", replay=True)
    assert replayed.failure is not None and replayed.failure.property == first.failure.property
    assert replayed.examples <= 3  # only the saved example(s), no generation
    # another key (another target) has nothing saved: replay checks nothing
    other = run_pair(convert, *WIDGET_VERSIONS, examples=300, seed=99, database=db, key=b"other", replay=True)
    assert other.ok and other.examples == 0


def test_shrink_limit_is_restored() -> None:
    from hypothesis.internal.conjecture import engine

    before = engine.MAX_SHRINKING_SECONDS
    run_pair(_converter("identity:keep_api_version"), *WIDGET_VERSIONS, examples=20, seed=1, shrink_seconds=1.0)
    assert engine.MAX_SHRINKING_SECONDS == before


def test_unsatisfiable_schema_gives_up_cleanly() -> None:
    crd = yaml.safe_load(CRONTAB.read_text(encoding="utf-8"))
    root = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    root["required"] = ["spec"]
    root["properties"]["spec"]["required"] = ["image"]
    root["properties"]["spec"]["properties"]["image"].update({"minLength": 3, "maxLength": 1})
    v1 = versions_from_crd(crd)[0]
    r = run_pair(crontab_conversion.convert_lossless, v1, v1, examples=10, seed=1)
    assert r.failure is None and not r.ok
    assert r.gave_up is not None and r.gave_up.startswith("could not generate valid stable.example.com/v1 objects")


# --- one generation per source version, several objects per example ----------------------------------------


@pytest.mark.parametrize("per_example", [1, 8])
def test_run_source_checks_every_target_on_each_object(per_example: int) -> None:
    seen: list[tuple[str, str]] = []

    def convert(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        seen.append((obj["apiVersion"], desired))
        return crontab_conversion.convert_lossless(obj, desired)

    results = run_source(convert, V1, [V1, V2], examples=37, seed=1, per_example=per_example)
    assert [(r.from_version, r.to_version, r.examples, r.ok) for r in results] == [
        ("v1", "v1", 37, True), ("v1", "v2", 37, True)
    ]
    # each object: once to v1 (same version), to v2 and back
    assert seen.count(("stable.example.com/v1", "stable.example.com/v1")) == 37
    assert seen.count(("stable.example.com/v1", "stable.example.com/v2")) == 37
    assert seen.count(("stable.example.com/v2", "stable.example.com/v1")) == 37


@pytest.mark.parametrize("per_example", [1, 8])
def test_the_other_targets_keep_their_examples_after_a_failure(per_example: int) -> None:
    results = run_source(crontab_conversion.convert, V1, [V2, V1], examples=60, seed=0, per_example=per_example,
                         shrink_seconds=2.0)
    to_v2, to_v1 = results
    assert to_v2.failure is not None and to_v2.failure.property == "call"
    assert to_v1.ok and to_v1.examples == 60
    # shrunk as with one object per example: no spec at all, the simplest metadata
    assert "spec" not in to_v2.failure.input and to_v2.failure.input["metadata"]["name"] == "a"


def test_run_source_failures_are_saved_and_replayed_under_the_targets_tested() -> None:
    from hypothesis.database import InMemoryExampleDatabase

    db = InMemoryExampleDatabase()
    first = run_source(crontab_conversion.convert, V2, [V2, V1], examples=50, seed=3, database=db, key=b"k",
                       per_example=8, shrink_seconds=2.0)
    assert first[1].failure is not None and first[0].ok
    replayed = run_source(crontab_conversion.convert, V2, [V2, V1], examples=50, seed=99, database=db, key=b"k",
                          per_example=8, replay=True)
    assert replayed[1].failure is not None and replayed[1].failure.property == first[1].failure.property
    assert replayed[1].failure.input == first[1].failure.input  # exact replay of the shrunk object
    assert replayed[0].failure is None
    other = run_source(crontab_conversion.convert, V2, [V2, V1], examples=50, seed=99, database=db, key=b"other",
                       per_example=8, replay=True)
    assert all(r.ok and r.examples == 0 for r in other)


