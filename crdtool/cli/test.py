"""``crdtool test [PATH...]``: run ``*.crdtest.yaml`` suites of a CRD's validation rules, without a cluster.

Suites are discovered under the paths (default ``.``; directories are walked for ``*.crdtest.yaml``,
hidden directories and ``node_modules`` passed over; a file named is always read); every selected case runs
on the apiserver's create or update path under each requested Kubernetes release
(:mod:`crdtool.testing.runner`), and the results go through the reporters (text, json, github, sarif,
junit). A suite's admission cases go through the admission chain ``crdtool admit`` runs instead
(:func:`crdtool.testing.runner.check_admission`). ``--coverage`` adds the rule-coverage table (and the policy
expressions' coverage); ``--generate CRD`` writes a starter suite instead.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from crdtool.cli.reporters import Case, CheckRun, Finding, report, write_text

SKIP_DIRS = frozenset({"node_modules", "__pycache__"})


def discover(paths: list[str]) -> tuple[list[str], list[str]]:
    """Suite files under ``paths`` (sorted within each directory) and the paths that do not exist."""
    from crdtool.testing.suite import is_suite_file

    found: list[str] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isfile(path):
            found.append(path)
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
                found.extend(os.path.normpath(os.path.join(root, f)) for f in sorted(files) if is_suite_file(f))
        else:
            missing.append(path)
    return list(dict.fromkeys(found)), missing


def run(
    paths: list[str],
    output: str,
    *,
    select: str | None = None,
    kubernetes_version: str | None = None,
    coverage: bool = False,
    fail_under: float | None = None,
    quiet: bool = False,
    stream: TextIO | None = None,
    jobs: int | None = None,
    default_kubernetes_version: tuple[str, str] | None = None,
    update: bool = False,
) -> int:
    """Run the suites; exit 0 when every case passes (and coverage is at least ``fail_under``), 1 when a case
    fails, coverage is lower or the apiserver refuses a CRD under test, 2 on usage or input errors (no suite
    found, a suite that cannot be read, two CRDs of one name, a ``-k`` that selects no case). ``update``: rewrite
    the failing cases' expectations (:func:`_update`; then 0 when every one was updated).

    ``jobs``: worker processes running the cases (None: one per core; 1: none); the report does not depend
    on it (:func:`run_cases`). ``default_kubernetes_version``: ``(where it was set, its value)`` for the
    releases of the cases that name none (``$CRDTOOL_KUBERNETES_VERSION``, the configuration's
    ``kubernetesVersion``); ``kubernetes_version`` (the option) overrides every case's."""
    from crdtool.testing.releases import ReleaseError, parse_kubernetes_versions
    from crdtool.testing.runner import Session, compile_selector
    from crdtool.testing.suite import load_suite

    out = stream or sys.stdout
    try:
        releases = parse_kubernetes_versions(kubernetes_version) if kubernetes_version else None
    except ReleaseError as exc:
        print(f"crdtool test: --kubernetes-version: {exc}", file=sys.stderr)
        return 2
    default = None
    if default_kubernetes_version is not None:
        source, value = default_kubernetes_version
        try:
            default = parse_kubernetes_versions(value)
        except ReleaseError as exc:
            print(f"crdtool test: {source}: {exc}", file=sys.stderr)
            return 2
    try:
        selector = compile_selector(select) if select else None
    except ValueError as exc:
        print(f"crdtool test: {exc}", file=sys.stderr)
        return 2
    files, missing = discover(paths or ["."])
    for path in missing:
        print(f"crdtool test: {path}: no such file or directory", file=sys.stderr)
    if not files:
        where = ", ".join(paths or ["."])
        print(f"crdtool test: no test suite found in {where} (looked for *.crdtest.yaml)", file=sys.stderr)
        return 2
    session = Session()
    suites = [load_suite(f, crd_cache=session.crd_cache) for f in files]
    result = run_cases(suites, releases, selector, session, jobs, default)
    percent = result.coverage.percent()
    low_coverage = fail_under is not None and percent < fail_under
    check = _check_run(result, coverage or fail_under is not None, quiet, out, percent, fail_under)
    if select and not result.results and not result.not_run and result.deselected:
        # pytest's habit: a -k that selects nothing is no passing run
        print(f"crdtool test: -k {select!r} selects none of the {result.deselected} "
              f"case{'s' if result.deselected != 1 else ''}", file=sys.stderr)
        return 2
    report(check, output, out)
    if update and result.failed:
        return _update(result, suites, missing, low_coverage)
    if missing or any(e.kind != "crd-invalid" for e in result.suite_errors):
        return 2
    refused = any(e.kind == "crd-invalid" for e in result.suite_errors)
    return 1 if result.failed or low_coverage or refused else 0


def _update(result: Any, suites: list[Any], missing: list[str], low_coverage: bool = False) -> int:
    """``--update``: write each failing case's new expectation (:mod:`crdtool.testing.update`), one line per
    change on stderr; exit 0 when every failing case was updated (1 when some could not be, 2 on input errors)."""
    from crdtool.cli.atomic import atomic_write_text
    from crdtool.core.gojson import go_json_dumps
    from crdtool.testing.update import plan_updates

    left = 0
    try:
        updates = plan_updates(result.results, suites)
    except OSError as exc:
        print(f"crdtool test --update: {exc}", file=sys.stderr)
        return 2
    for update in updates:
        written = [c for c in update.cases if c.skipped is None]
        if update.text is not None and written:
            try:
                atomic_write_text(update.file, update.text)
            except OSError as exc:
                print(f"crdtool test --update: {update.file}: {exc.strerror or exc}", file=sys.stderr)
                return 2
        for c in update.cases:
            where = f"{c.file}:{c.line}"
            if c.skipped is not None:
                left += 1
                print(f"not updated: {where}: {c.name!r}: {c.skipped}", file=sys.stderr)
                continue
            if isinstance(c.new, list) and c.new and all(isinstance(x, str) for x in c.new):
                # an annotated manifest's '# expect:' lines
                print(f"updated: {where}: {' | '.join(c.old)} -> {' | '.join(c.new)}", file=sys.stderr)
                continue
            pairs = list(zip(c.old, [n for _, n in c.new])) if isinstance(c.new, list) else [(c.old, c.new)]
            labels = [f" step {k + 1}" for k, _ in c.new] if isinstance(c.new, list) else [""]
            for label, (old, new) in zip(labels, pairs):
                print(f"updated: {where}: {c.name!r}{label}: expect {go_json_dumps(old, indent=None)} -> "
                      f"{go_json_dumps(new, indent=None)}", file=sys.stderr)
    done = sum(c.skipped is None for u in updates for c in u.cases)
    print(f"--update: {done} case{'s' if done != 1 else ''} updated, {left} not", file=sys.stderr)
    if missing or any(e.kind != "crd-invalid" for e in result.suite_errors):
        return 2
    return 1 if left or low_coverage or any(e.kind == "crd-invalid" for e in result.suite_errors) else 0


#: With at least this many case runs, they are run by worker processes (``--jobs``).
PARALLEL_MIN_RUNS = 64


def run_cases(suites: list[Any], releases: tuple[str, ...] | None, selector: Any, session: Any,
              jobs: int | None = None, default: tuple[str, ...] | None = None) -> Any:
    """:func:`crdtool.testing.runner.run`, the case runs spread over ``jobs`` forked workers in ranges.

    The workers inherit the suites and the session's CRDs, prepared here for every release used before they
    fork; each sends back its case results and a :class:`~crdtool.testing.runner.CoverageLog`, replayed
    here in case order: the same :class:`~crdtool.testing.runner.RunResult` as running them in this process.
    """
    from crdtool.cli.jobs import index_ranges, ordered_map, resolve_jobs
    from crdtool.testing.runner import CoverageLog, plan

    runs, out = plan(suites, releases=releases, select=selector, default=default, session=session)
    workers = resolve_jobs(jobs) if len(runs) >= PARALLEL_MIN_RUNS else 1
    if workers <= 1:
        out.results.extend(r.run(session, out.coverage) for r in runs)
        return out
    for r in runs:  # what each worker would do first, once: prepare the CRDs and compile their rules
        entry = session.crd_for(r.suite, r.case.object)
        if entry is not None:
            _warm(entry, r.release)

    def run_range(numbers: range) -> tuple[list[Any], list[tuple[Any, ...]]]:
        log = CoverageLog()
        return [runs[i].run(session, log) for i in numbers], log.log

    start = 0
    for done, log in ordered_map(run_range, index_ranges(len(runs), workers, per_worker=4), workers):
        for result in done:
            result.case = runs[start].case  # the parent's own case (a worker's came back as a copy)
            out.results.append(result)
            start += 1
        CoverageLog.replay(log, out.coverage)
    return out


def _warm(entry: Any, release: str) -> None:
    from crdtool.core.customresource import CustomResourceError

    try:
        prepared = entry.prepared(release)
    except CustomResourceError:  # the cases of this CRD report it when they run
        return
    for version in prepared.versions:
        if version.served and version.cel_validator is not None:
            version.cel_validator.get()


def _summary(result: Any, percent: float = 100.0, fail_under: float | None = None) -> str:
    counts = {"passed": 0, "failed": 0, "error": 0}
    for r in result.results:
        counts[r.outcome] += 1
    total = len(result.results)
    text = f"{total} case{'s' if total != 1 else ''}: {counts['passed']} passed, {counts['failed']} failed"
    if counts["error"]:
        text += f", {counts['error']} error{'s' if counts['error'] != 1 else ''}"
    if result.deselected:
        text += f", {result.deselected} deselected"
    if result.not_run:
        text += f", {result.not_run} not run"
    if result.suite_errors:
        text += f"; {len(result.suite_errors)} suite error{'s' if len(result.suite_errors) != 1 else ''}"
    if fail_under is not None and percent < fail_under:
        text += f"; rule coverage {percent:.1f}% below --fail-under {fail_under:g}"
    return text


def _cases(result: Any, percent: float = 100.0, fail_under: float | None = None) -> list[Case]:
    """Every case result, each suite error, and (``--fail-under`` not met) a failed case named ``coverage``, so
    that the github, junit and sarif reporters say why the run fails, not only the text and JSON outputs."""
    cases: list[Case] = []
    for error in result.suite_errors:
        refused = error.kind == "crd-invalid"  # a finding about the CRD under test, not an unreadable input
        finding = Finding("CRDRefused" if refused else "InputError", "error", error.message, error.file,
                          error.line or None)
        cases.append(Case(os.path.basename(error.file), error.file, error.line or None,
                          "failed" if refused else "error", (finding,)))
    for r in result.results:
        findings: tuple[Finding, ...] = ()
        if r.outcome != "passed":
            findings = (Finding("TestFailure" if r.outcome == "failed" else "TestError", "error",
                                f"{r.name}: " + "; ".join(r.problems), r.case.file, r.case.line),)
        cases.append(Case(r.name, r.case.file, r.case.line, r.outcome, findings))
    if fail_under is not None and percent < fail_under:
        cases.append(_coverage_case(result, percent, fail_under))
    return cases


def _coverage_case(result: Any, percent: float, fail_under: float) -> Case:
    """The coverage shortfall as a failed case: one finding at the first validation not covered (else the first
    suite file), naming the figures and how many validations are not covered."""
    cov = result.coverage
    gaps = sorted((i for i in cov.items.values() if not cov.covered(i.key)), key=lambda i: (i.file, i.line, i.path))
    total = len(cov.items)
    message = (f"rule coverage {percent:.1f}% is below --fail-under {fail_under:g}% "
               f"({total - len(gaps)}/{total} validations covered")
    if gaps:
        first = gaps[0]
        message += f"; {len(gaps)} not covered, the first at {first.file}:{first.line}: {first.text}"
    message += ")"
    if gaps:
        file, line = gaps[0].file, gaps[0].line or None
    elif result.results:
        file, line = result.results[0].case.file, None
    else:
        file, line = ".", None
    return Case("coverage", file, line, "failed", (Finding("Coverage", "error", message, file, line),))


def _json(result: Any, with_coverage: bool, percent: float) -> dict[str, Any]:
    from crdtool.testing.runner import status_message

    rows = []
    for r in result.results:
        v = r.verdict
        rows.append({
            "file": r.case.file, "line": r.case.line, "name": r.case.name, "release": r.release,
            "operation": r.case.operation, "outcome": r.outcome, "problems": r.problems,
            "errors": [dict(e.to_dict(), **({"rule": _rule_json(r.rules[id(e)])} if id(e) in r.rules else {}))
                       for e in (v.errors if v else [])],
            "warnings": list(v.warnings) if v else list(r.admission.warnings) if r.admission is not None else [],
            "message": status_message(v) if v else r.admission.message if r.admission is not None else "",
            **({"admission": r.admission.to_json()} if r.admission is not None else {}),
            **({"steps": [{"operation": "CREATE" if i == 0 else "UPDATE", "errors": [e.to_dict() for e in sv.errors],
                           "warnings": list(sv.warnings), "message": status_message(sv)}
                          for i, sv in enumerate(r.step_verdicts)]} if r.case.steps else {}),
        })
    counts = {k: sum(r.outcome == k for r in result.results) for k in ("passed", "failed", "error")}
    payload: dict[str, Any] = {
        "summary": {"cases": len(result.results), **counts, "deselected": result.deselected, "notRun": result.not_run,
                    "suiteErrors": len(result.suite_errors)},
        "cases": rows,
        "suiteErrors": [{"file": e.file, "line": e.line, "message": e.message, "kind": e.kind}
                        for e in result.suite_errors],
    }
    if with_coverage:
        payload["coverage"] = {"percent": round(percent, 2), "items": result.coverage.rows()}
    return payload


def _rule_json(item: Any) -> dict[str, Any]:
    return {"rule": item.text, "file": item.file, "line": item.line, "path": item.path}


def _check_run(result: Any, with_coverage: bool, quiet: bool, out: TextIO, percent: float,
               fail_under: float | None) -> CheckRun:
    def render_text() -> None:
        write_text(out, render_text_report(result, with_coverage, quiet, percent, fail_under))

    return CheckRun(
        command="test", cases=_cases(result, percent, fail_under), render_text=render_text,
        json_payload=lambda: _json(result, with_coverage, percent), summary=_summary(result, percent, fail_under),
        rules={"TestFailure": "A test case's expectation does not hold.",
               "TestError": "A test case could not be run (no CRD of its kind, a version not served).",
               "CRDRefused": "The apiserver refuses to create a CRD of the suite: its cases are not run.",
               "Coverage": "Rule coverage is below --fail-under: validations no case made both pass and fail."},
    )


def render_text_report(result: Any, with_coverage: bool, quiet: bool, percent: float, fail_under: float | None) -> str:
    lines: list[str] = []
    for error in result.suite_errors:
        lines.append(f"{error}")
    by_file: dict[str, list[Any]] = {}
    for r in result.results:
        by_file.setdefault(r.case.file, []).append(r)
    for file, results in by_file.items():
        failed = sum(not r.passed for r in results)
        if quiet and not failed:
            continue
        marks = "".join("." if r.passed else ("F" if r.outcome == "failed" else "E") for r in results)
        lines.append(f"{file} {marks}")
    failures = [r for r in result.results if not r.passed]
    if failures:
        lines.append("")
        lines.append("FAILURES")
        for r in failures:
            lines.append("")
            lines.append(r.explain())
    if with_coverage:
        lines.append("")
        lines.extend(coverage_table(result.coverage, percent, fail_under))
    lines.append("")
    lines.append(_summary(result, percent, fail_under))
    return "\n".join(lines) + "\n"


def coverage_table(cov: Any, percent: float, fail_under: float | None) -> list[str]:
    """The coverage report: one line per CRD version, then every validation not both passed and failed."""
    from crdtool.testing.coverage import POLICY_KINDS

    lines = ["RULE COVERAGE (a validation is covered when some case made it pass and some case made it fail)"]
    groups: dict[tuple[str, str, str], list[Any]] = {}
    for item in cov.items.values():
        groups.setdefault((item.file, item.crd, item.version), []).append(item)
    if any(i.kind in POLICY_KINDS for i in cov.items.values()):
        lines[0] += "; a policy expression when some case evaluated it"
    for (file, crd, version), items in sorted(groups.items()):
        if items[0].kind in POLICY_KINDS:
            lines.append(f"  {version} {crd} ({file}): expressions {_ratio(cov, items)}")
            continue
        rules = [i for i in items if i.kind == "rule"]
        schema = [i for i in items if i.kind != "rule"]
        lines.append(f"  {crd} {version} ({file}): CEL rules {_ratio(cov, rules)}, schema validations {_ratio(cov, schema)}")
    gaps = [i for i in sorted(cov.items.values(), key=lambda i: (i.file, i.line, i.path)) if not cov.covered(i.key)]
    if gaps:
        lines.append("")
        lines.append("  not covered (never failed / never passed by any case):")
        for item in gaps:
            if item.kind in POLICY_KINDS:
                lines.append(f"    {item.file}:{item.line}: {item.kind}: {item.text} (never evaluated)")
                continue
            missing = []
            if item.key not in cov.failed:
                missing.append("never failed")
            if item.key not in cov.passed:
                missing.append("never passed")
            lines.append(f"    {item.file}:{item.line}: {item.kind}: {item.text} ({', '.join(missing)})")
    total = len(cov.items)
    line = f"  total: {sum(cov.covered(k) for k in cov.items)}/{total} covered, {percent:.1f}%"
    if fail_under is not None:
        line += f" (--fail-under {fail_under:g}: {'ok' if percent >= fail_under else 'FAILED'})"
    lines.append(line)
    return lines


def _ratio(cov: Any, items: list[Any]) -> str:
    if not items:
        return "none"
    covered = sum(cov.covered(i.key) for i in items)
    return f"{covered}/{len(items)} ({100.0 * covered / len(items):.0f}%)"
