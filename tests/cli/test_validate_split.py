"""``validate --jobs 2`` on one large file without CRDs (the bundle checks on, the default): the workers load and
judge runs of its chunks in one pool (``_judge_split_file``) while a child process settles whether the ``--crd``
CRDs are valid themselves. Differential: the report, byte for byte, and the exit status are those of ``--jobs 1``;
and the inputs this path must leave to the others (a CRD among them, spelt plainly or not) are left to them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crdtool.cli import jobs, validate
from crdtool.cli.app import app
from crdtool.core.bundle import check_bundle, select_rules, takes_part
from crdtool.yaml.loader import Document, load_path
from tests.cli.test_validate_jobs_loaded import _TRICKY, _cronjob

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
BUNDLE = ROOT / "tests" / "cases" / "bundle"


def _invoke(args: list[str]) -> tuple[str, int]:
    got = CliRunner().invoke(app, ["validate", *args],
                             env={"NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb", "GITHUB_ACTIONS": ""})
    assert got.exception is None or isinstance(got.exception, SystemExit), got.exception
    return got.stdout, got.exit_code


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each call of ``_judge_split_file`` with more than one job judged the file (True) or left it to the
    usual path (False); small tasks, and every file large enough."""
    calls: list[bool] = []
    real = validate._judge_split_file

    def spy(*args: Any) -> Any:
        got = real(*args)
        if args[5] > 1:
            calls.append(got is not None)
        return got

    monkeypatch.setattr(validate, "_judge_split_file", spy)
    monkeypatch.setattr(validate, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(validate, "SPLIT_JUDGE_TASK_BYTES", 2 << 10)
    return calls


def _invalid_crd(tmp_path: Path) -> Path:
    """samples/crontab-v1.yaml with a printer column the apiserver refuses: its custom resources get a warning."""
    crd = (SAMPLES / "crontab-v1.yaml").read_text().replace(
        "      served: true",
        "      served: true\n      additionalPrinterColumns:\n      - {name: Spec, type: string, jsonPath: spec}", 1)
    path = tmp_path / "crd.yaml"
    path.write_text(crd)
    return path


def _big_file(tmp_path: Path) -> Path:
    """Every kind of chunk (input errors in the middle, a Helm template, null and empty documents, a List), the
    bundle of tests/cases/bundle/ but its CRDs (a finding of every check but BND002's: a Service, a workload, RBAC,
    a webhook), CronTabs valid and not."""
    bundle = "".join("---\n" + p.read_text() for p in sorted(BUNDLE.glob("*.yaml")) if p.name != "crds.yaml")
    crontabs = [f"---\n{_cronjob(f'c{i}', i % 12)}" for i in range(150)]
    helm = "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n"
    assert helm[4:] in _TRICKY
    broken = "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\n"  # a parse error between CronTabs
    path = tmp_path / "objects.yaml"
    # the Helm template's error after the other one (with the hint), then one more error (silenced by the hint)
    path.write_text(_TRICKY.replace(helm[4:], "") + "".join(crontabs[:75]) + broken + bundle + helm
                    + "".join(crontabs[75:]) + broken)
    return path


@pytest.mark.parametrize("extra", [
    ["--output", "json"],
    ["--output", "text"],
    ["--output", "json", "--strict"],
    ["--output", "sarif", "--skip-kind", "ConfigMap", "--quiet"],
])
def test_one_big_file_judged_in_one_pool_reports_as_one_process(tmp_path: Path, spied: list[bool],
                                                                 extra: list[str]) -> None:
    path = _big_file(tmp_path)
    args = [str(path), "--crd", str(_invalid_crd(tmp_path)), "--crd", str(BUNDLE / "crds.yaml"), *extra]
    serial = _invoke([*args, "--jobs", "1"])
    assert spied == []
    parallel = _invoke([*args, "--jobs", "2"])
    assert spied == [True]
    assert parallel == serial
    assert serial[1] == 2  # the input errors
    if extra[1] == "json":
        report = json.loads(serial[0])
        crontabs = [d for d in report["documents"] if d.get("kind") == "CronTab"]
        assert len(crontabs) == 152 and all(any("is itself invalid" in w for w in d["warnings"]) for d in crontabs)
        assert report["summary"]["errors"] == 4 and report["summary"]["invalid"] > 0
        codes = {e["type"] for d in report["documents"] for e in d["errors"]} | {
            w.split()[0] for d in report["documents"] for w in d["warnings"]}
        assert {"BND001", "BND003", "BND004", "BND007", "BND008"} <= codes


@pytest.mark.parametrize("crd", [
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
    # the kind spelt with an escape: only the worker that loads it sees a CRD
    'apiVersion: apiextensions.k8s.io/v1\nkind: "CustomResource\\x44efinition"\n',
])
def test_a_crd_in_the_file_leaves_it_to_the_usual_path(tmp_path: Path, spied: list[bool], crd: str) -> None:
    """The catalog must hold every CRD before a custom resource is judged: the file goes the usual way (its CRDs
    judged first), with the same report."""
    path = tmp_path / "objects.yaml"
    crd_doc = (SAMPLES / "crontab-v1.yaml").read_text().split("\n", 2)[2]  # after apiVersion and kind
    crontabs = [f"---\n{_cronjob(f'c{i}', i % 12)}" for i in range(80)]
    path.write_text("".join(crontabs[:60]) + "---\n" + crd + crd_doc + "".join(crontabs[60:]))
    serial = _invoke([str(path), "--output", "json", "--jobs", "1"])
    parallel = _invoke([str(path), "--output", "json", "--jobs", "2"])
    assert spied == [False]
    assert parallel == serial
    report = json.loads(serial[0])
    assert report["documents"][60]["kind"] == "CustomResourceDefinition"
    assert {d["status"] for d in report["documents"][:60]} == {"valid", "invalid"}  # judged against it


@pytest.mark.parametrize("failure", [OSError(11, "Resource temporarily unavailable"),
                                     jobs.WorkerLost("a worker (process 1) ended before sending its result")])
def test_no_worker_processes_leaves_the_file_to_the_usual_path(tmp_path: Path, spied: list[bool],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               failure: Exception) -> None:
    """No worker to be had (fork fails), or one lost on the way: the file is judged the usual way, the same."""
    real = jobs.ordered_map
    calls: list[int] = []

    def no_fork_at_first(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:  # the split file's pool
            raise failure
        yield from real(*args, **kw)

    path = _big_file(tmp_path)
    args = [str(path), "--crd", str(_invalid_crd(tmp_path)), "--output", "json"]
    serial = _invoke([*args, "--jobs", "1"])
    monkeypatch.setattr(jobs, "ordered_map", no_fork_at_first)
    assert _invoke([*args, "--jobs", "2"]) == serial
    assert spied == [False]


def test_documents_the_bundle_checks_do_not_read_change_no_finding() -> None:
    """:func:`takes_part` over tests/cases/bundle/ and samples/: each document it leaves out, replaced by None,
    changes no finding of any check, at the default namespace or another."""
    documents = [item.data for p in sorted([*BUNDLE.glob("*.yaml"), *SAMPLES.glob("*.yaml")])
                 for item in load_path(str(p)) if isinstance(item, Document)]
    kept = [d if takes_part(d) else None for d in documents]
    assert 0 < sum(d is None for d in kept) < len(kept)
    everything = select_rules(["ALL"])
    for namespace in ("default", "other"):
        found = check_bundle(documents, namespace=namespace, rules=everything)
        assert found and check_bundle(kept, namespace=namespace, rules=everything) == found
        assert all(kept[f.document] is not None for f in found)


@pytest.mark.parametrize(("document", "part"), [
    ({"apiVersion": "v1", "kind": "Service"}, True),
    ({"apiVersion": "apps/v1", "kind": "Deployment"}, True),
    ({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding"}, True),
    ({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "spec": {"template": {"spec": {"containers": []}}}}, True),
    ({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout", "spec": {}}, False),
    ({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute"}, False),
    ({"apiVersion": "v1", "kind": "ConfigMap"}, False),
    ({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap"}]}, False),
    ({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "ServiceAccount"}]}, True),
    ("not a mapping", False),
])
def test_which_documents_take_part_in_the_bundle_checks(document: Any, part: bool) -> None:
    assert takes_part(document) is part


@pytest.mark.parametrize("sizes", [[620] * 3000, [5, 5, 5], [70_000, 10, 10, 200_000, 10], [1] * 9])
def test_tasks_shrink_towards_the_end_of_the_file(sizes: list[int]) -> None:
    most = 64 << 10
    runs = validate._shrinking_runs(sizes, 2, most)
    assert [k for run in runs for k in run] == list(range(len(sizes)))  # every chunk once, in order
    held = [sum(sizes[k] for k in run) for run in runs]
    for run, size in zip(runs, held):
        assert len(run) == 1 or size - sizes[run[-1]] < most  # a run ends once it holds enough
    if len(sizes) == 3000:
        assert held[0] >= most and held[-2] <= most // 4 and len(runs) <= 64


def test_inputs_loaded_whole_are_known_from_their_sizes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the bundle checks, the streams are not planned when their files could not exceed the bundle's limit."""
    from crdtool.cli import bundle_checks

    small, big = tmp_path / "small.yaml", tmp_path / "big.yaml"
    small.write_text("a: 1\n")
    big.write_text("a: 1\n" * 300_000)  # 1.5 MB: may be a stream
    assert validate._loaded_whole([str(small), str(big), str(tmp_path / "missing.yaml")])
    assert not validate._loaded_whole([str(small), "-"])  # stdin: read to know
    monkeypatch.setattr(bundle_checks, "BUNDLE_MAX_BYTES", 1 << 20)
    assert not validate._loaded_whole([str(big)])
    assert validate._loaded_whole([str(small)] * 400)  # small files are never streams
