"""``--jobs N`` on the other judging commands (``diff --objects``, ``default``) and the helpers they share.

Whatever the number of workers, the output is the same bytes and the exit status the same; ``--jobs 1``
judges in the command's own process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from crdtool.cli import jobs

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
DIFF_CASES = ROOT / "tests" / "cases" / "diff"


def _crdtool(*args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "CI")}
    env.update(NO_COLOR="1", TERM="dumb")
    return subprocess.run([sys.executable, "-m", "crdtool", *args], capture_output=True, env=env, cwd=ROOT,
                          timeout=300, check=False)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stored CronTabs of the diff cases, many times over: as a List, and as separate documents."""
    items = yaml.safe_load((DIFF_CASES / "crontabs-stored.yaml").read_text())["items"]
    many = []
    for copy in range(40):
        for item in items:
            obj = {**item, "metadata": {**item["metadata"], "name": f"{item['metadata']['name']}-{copy}"}}
            many.append(obj)
    assert len(many) >= 100
    folder = tmp_path_factory.mktemp("jobs")
    (folder / "list.yaml").write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": many}))
    (folder / "docs.yaml").write_text(yaml.safe_dump_all(many + [{"apiVersion": "v1", "kind": "ConfigMap",
                                                                    "metadata": {"name": "cm"}}]))
    return folder


@pytest.mark.parametrize("output", ["text", "json"])
def test_diff_objects_report_the_same_with_one_or_two_workers(stored: Path, output: str) -> None:
    base = ["diff", str(SAMPLES / "crontab-v1.yaml"), str(DIFF_CASES / "crontab-new.yaml"),
            "--objects", str(stored / "list.yaml"), "--objects", str(stored / "docs.yaml"), "--output", output]
    one, two = _crdtool(*base, "--jobs", "1"), _crdtool(*base, "--jobs", "2")
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
    assert one.returncode == 1 and one.stdout.count(b"rejected") >= 40


def test_default_prints_the_same_with_one_or_two_workers(stored: Path) -> None:
    base = ["default", "--crd", str(SAMPLES / "crontab-v1.yaml"), str(stored / "docs.yaml"), str(stored / "list.yaml")]
    for extra in ([], ["--output", "json"], ["--show-pruned"]):
        one, two = _crdtool(*base, *extra, "--jobs", "1"), _crdtool(*base, *extra, "--jobs", "2")
        assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
        assert one.stdout.count(b"kind: CronTab") >= 100 or one.stdout.count(b'"kind": "CronTab"') >= 100


def test_default_with_an_object_it_cannot_default_reports_it_in_place(tmp_path: Path) -> None:
    docs = [{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": f"c{i}"},
             "spec": {"cronSpec": "* * * * */5"}} for i in range(80)]
    docs[40]["apiVersion"] = "stable.example.com/v9"  # a version the CRD does not define
    path = tmp_path / "objects.yaml"
    path.write_text(yaml.safe_dump_all(docs))
    one = _crdtool("default", "--crd", str(SAMPLES / "crontab-v1.yaml"), str(path), "--jobs", "1")
    two = _crdtool("default", "--crd", str(SAMPLES / "crontab-v1.yaml"), str(path), "--jobs", "2")
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
    assert one.returncode == 2 and b"v9" in one.stderr and one.stdout.count(b"replicas: 1") == 79


def test_jobs_is_at_least_one() -> None:
    out = _crdtool("validate", "--jobs", "0", str(SAMPLES / "crontab-v1.yaml"))
    assert out.returncode == 2 and b"--jobs" in out.stderr
    with pytest.raises(ValueError):
        jobs.resolve_jobs(0)
    assert jobs.resolve_jobs(None) == jobs.available_cores()
    assert jobs.resolve_jobs(3) == 3


def test_ordered_map_keeps_the_order_and_raises_at_the_failing_task() -> None:
    def square(n: int) -> int:
        if n == 7:
            raise KeyError(n)
        return n * n

    assert list(jobs.ordered_map(square, range(7), 2)) == [n * n for n in range(7)]
    assert list(jobs.ordered_map(square, iter(range(7)), 1)) == [n * n for n in range(7)]
    with pytest.raises(KeyError):
        list(jobs.ordered_map(square, range(20), 2))


@pytest.mark.parametrize("jobs_", [2, 3])
def test_ordered_map_here_takes_tasks_itself_and_keeps_the_order(jobs_: int) -> None:
    """``here=True``: this process is one of the jobs, computing tasks while the awaited result is not in."""
    import time

    parent = os.getpid()

    def where(n: int) -> tuple[int, bool]:
        time.sleep(0.002)  # long enough for the worker's results to lag behind
        return n, os.getpid() == parent

    got = list(jobs.ordered_map(where, range(200), jobs_, in_flight=2, here=True))
    assert [n for n, _ in got] == list(range(200))
    assert any(here for _, here in got) and not all(here for _, here in got)  # both worked

    def square(n: int) -> int:
        if n == 150:
            raise KeyError(n)
        return n * n

    with pytest.raises(KeyError):  # raised at its task, wherever it ran
        list(jobs.ordered_map(square, range(300), jobs_, here=True))


def _children() -> set[int]:
    """This process's child processes, zombies included (Linux's /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                out.add(int(entry))
    return out


_PROC = pytest.mark.skipif(not os.path.isdir("/proc"), reason="counts child processes in /proc (Linux)")


@_PROC
def test_ordered_map_here_reports_a_worker_that_dies_and_leaves_no_process_behind() -> None:
    """A worker killed before it answers (out of memory, say): :class:`jobs.WorkerLost` at its task, which the
    callers catch to judge the usual way; every worker is waited for."""
    parent = os.getpid()
    before = _children()

    def dies_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            os._exit(9)
        return n

    with pytest.raises(jobs.WorkerLost):
        list(jobs.ordered_map(dies_in_the_worker, range(50), 2, here=True))
    assert _children() <= before  # no worker left running or unwaited


def test_ordered_map_here_raises_a_workers_exception_with_its_traceback() -> None:
    parent = os.getpid()

    def fails_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            raise ValueError(f"task {n}")
        return n

    with pytest.raises(ValueError, match="task ") as caught:
        list(jobs.ordered_map(fails_in_the_worker, range(50), 2, here=True))
    cause = caught.value.__cause__
    assert isinstance(cause, jobs.RemoteTraceback) and "fails_in_the_worker" in str(cause)


@_PROC
def test_ordered_map_here_stopped_early_ends_its_workers() -> None:
    before = _children()
    got = jobs.ordered_map(lambda n: n * 2, range(1000), 3, in_flight=2, here=True)
    assert [next(got) for _ in range(5)] == [0, 2, 4, 6, 8]
    assert len(_children() - before) == 2  # two workers beside this process
    got.close()  # the consumer stops: the workers are told to end, and waited for
    assert _children() <= before


@_PROC
@pytest.mark.parametrize("jobs_", [1, 2, 3])
def test_completed_map_does_every_task_once_here_and_in_the_workers(jobs_: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks biggest first: the workers take them from the front, this process from the back; each answer once,
    whatever the order; big answers through spill files (here every answer over 100 bytes), none left after."""
    import tempfile
    import time

    monkeypatch.setattr(jobs, "SPILL_BYTES", 100)
    folders: list[str] = []
    made = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", lambda **kw: folders.append(made(**kw)) or folders[-1])
    read: list[str] = []
    unlink = os.unlink
    monkeypatch.setattr(os, "unlink", lambda name: read.append(name) or unlink(name))
    parent = os.getpid()
    before = _children()

    def work(n: int) -> tuple[int, bool, str]:
        time.sleep(0.001 * (n % 3))
        return n, os.getpid() == parent, "x" * (n * 7)  # from n = 15 on, over SPILL_BYTES pickled

    got = list(jobs.completed_map(work, range(60, 0, -1), jobs_))
    assert sorted(task for task, _ in got) == list(range(1, 61))
    assert all(task == n and text == "x" * (n * 7) for task, (n, _, text) in got)
    mine = [n for _, (n, here, _) in got if here]
    assert mine and (jobs_ == 1 or len(mine) < 60)  # both worked when there are workers
    if jobs_ > 1:
        assert min(mine) == 1  # this process took from the back: the smallest
    assert _children() <= before
    if jobs_ > 1:
        (folder,) = folders
        assert not os.path.exists(folder)  # removed with whatever was left in it
        assert read and all(os.path.dirname(name) == folder for name in read)  # big answers came through files


@_PROC
def test_completed_map_forks_no_more_workers_than_tasks_beyond_the_first() -> None:
    before = _children()
    running = jobs.completed_map(lambda n: n * 10, [3, 2, 1], 8)
    first = next(running)
    assert len(_children() - before) <= 2  # not 7 workers for three tasks
    assert sorted([first, *running]) == [(1, 10), (2, 20), (3, 30)]
    assert _children() <= before


@_PROC
def test_completed_map_raises_a_workers_exception_and_reports_one_that_dies() -> None:
    parent = os.getpid()
    before = _children()

    def fails_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            raise ValueError(f"task {n}")
        return n

    with pytest.raises(ValueError, match="task ") as caught:
        list(jobs.completed_map(fails_in_the_worker, range(40), 2))
    assert isinstance(caught.value.__cause__, jobs.RemoteTraceback)

    def dies_in_the_worker(n: int) -> int:
        if os.getpid() != parent:
            os._exit(9)
        return n

    with pytest.raises(jobs.WorkerLost):
        list(jobs.completed_map(dies_in_the_worker, range(40), 2))
    assert _children() <= before


@pytest.mark.parametrize(("count", "workers"), [(0, 2), (1, 2), (5, 2), (100, 2), (1000, 8), (7, 1)])
def test_index_ranges_cover_every_index_once_in_order(count: int, workers: int) -> None:
    ranges = jobs.index_ranges(count, workers)
    assert [i for r in ranges for i in r] == list(range(count))
    assert len(ranges) <= max(1, workers * 4)


def test_batches_hold_every_file_once_biggest_first() -> None:
    """``validate``'s pool sends small files in batches (one round trip each), big files alone."""
    from crdtool.cli.validate import _BATCH_BYTES, _BATCH_FILES, _batches

    sizes = {i: (200_000 if i % 50 == 0 else 300) for i in range(400)}
    files = [(i, f"f{i}.yaml") for i in range(400)]
    batches = _batches(files, sizes, workers=2)
    flat = [entry for batch in batches for entry in batch]
    assert sorted(flat) == sorted(files)
    assert [sizes[i] for i, _ in flat] == sorted((sizes[i] for i, _ in files), reverse=True)
    for batch in batches:
        assert len(batch) <= _BATCH_FILES
        assert len(batch) == 1 or sum(sizes[i] for i, _ in batch) <= _BATCH_BYTES
    assert len(batches) >= 8
    # a few small files are spread over the workers (at least 4 batches a worker while files last)
    few = [(i, f"g{i}.yaml") for i in range(8)]
    assert len(_batches(few, dict.fromkeys(range(8), 300), workers=2)) == 8


def test_validate_many_small_files_the_same_with_one_or_two_workers(tmp_path: Path) -> None:
    """Batched loading changes nothing in the report (text and JSON, exit status)."""
    for i in range(150):
        doc = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"cm-{i}", "namespace": "default"},
               "data": {"k": str(i)}}
        if i % 37 == 0:
            doc["bogus"] = 1
        (tmp_path / f"{i:03d}.yaml").write_text(yaml.safe_dump(doc))
    for output in ("text", "json"):
        one = _crdtool("validate", str(tmp_path), "--output", output, "--jobs", "1")
        two = _crdtool("validate", str(tmp_path), "--output", output, "--jobs", "2")
        assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
        assert one.returncode == 1 and one.stdout.count(b"bogus") >= 5
