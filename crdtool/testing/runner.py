"""Running test cases: each object through the apiserver's create or update path, judged against its expectation.

A :class:`Session` prepares each CRD once (:func:`crdtool.prepare_crd`) and is shared by every suite of a
run; :func:`run_case` judges one case under one Kubernetes release; :func:`run` runs suites and keeps the
rule coverage. Every judging call goes through :func:`_judge` (one place for the release; see there).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from crdtool.testing.coverage import (
    Coverage,
    ItemIndex,
    constraint_outcomes,
    index_policies,
    index_version,
    schema_root,
)
from crdtool.testing.releases import DEFAULT_RELEASE
from crdtool.testing.suite import (
    AdmissionExpectation,
    BLOCKING_KINDS,
    ExpectedError,
    Expectation,
    Suite,
    SuiteError,
    TestCase,
)
from crdtool.yaml import Document

__all__ = ["CaseResult", "CaseRun", "CoverageLog", "CrdEntry", "RunResult", "Session", "Verdict", "case_id",
           "check_admission", "compile_selector", "crd_refusals", "plan", "run", "run_case", "status_message"]


# --------------------------------------------------------------------------------------------------
# CRDs


@dataclass
class CrdEntry:
    """One CRD document of a suite, prepared on first use, and the rule indexes of its versions."""

    doc: Document
    _prepared: dict[str, Any] = field(default_factory=dict)
    _indexes: dict[tuple[str, str], ItemIndex] = field(default_factory=dict)
    _refusals: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def manifest(self) -> dict[str, Any]:
        return self.doc.data

    @property
    def name(self) -> str:
        meta = self.manifest.get("metadata")
        return str(meta.get("name", "")) if isinstance(meta, dict) else ""

    @property
    def group(self) -> str:
        spec = self.manifest.get("spec")
        return str(spec.get("group", "")) if isinstance(spec, dict) else ""

    @property
    def kind(self) -> str:
        spec = self.manifest.get("spec")
        names = spec.get("names") if isinstance(spec, dict) else None
        return str(names.get("kind", "")) if isinstance(names, dict) else ""

    @property
    def where(self) -> str:
        return f"{self.doc.file}:{self.doc.line}"

    def prepared(self, release: str = DEFAULT_RELEASE) -> Any:
        """The CRD prepared for ``release`` (``"1.33"``), once per release."""
        found = self._prepared.get(release)
        if found is None:
            from crdtool import prepare_crd

            found = self._prepared[release] = prepare_crd(self.manifest, release)
        return found

    def refusal(self, release: str = DEFAULT_RELEASE) -> tuple[str, ...]:
        """The errors the apiserver of ``release`` answers a create of this CRD with (empty: it is created), once
        per release: :func:`crdtool.check_crd_manifest` with server-side field validation Strict, the
        storage step left out (a CRD exported by ``kubectl get`` carries a resourceVersion; what is judged
        is what the manifest says)."""
        found = self._refusals.get(release)
        if found is None:
            from crdtool.core.crd.manifest import check_crd_manifest, is_crd

            if not is_crd(self.manifest):
                found = (f"apiVersion: Unsupported value: {self.manifest.get('apiVersion')!r}: supported values: "
                         '"apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"',)
            else:
                verdict = check_crd_manifest(self.manifest, kubernetes_version=release, storage=False,
                                             duplicate_fields=tuple(getattr(self.doc, "duplicate_keys", ()) or ()))
                found = tuple(str(f.error) for f in verdict.findings)
            self._refusals[release] = found
        return found

    def index(self, version: str, release: str = DEFAULT_RELEASE) -> ItemIndex:
        """The validations of ``version`` (rules by rule-dict identity in the CRD prepared for ``release``; the
        items' keys are the same under every release, so coverage adds up across them)."""
        found = self._indexes.get((version, release))
        if found is None:
            ver = self.prepared(release).version(version)
            schema = ver.schema if ver is not None else None
            found = index_version(schema, self.manifest, self.name, version, self.doc.file, self.doc.position)
            self._indexes[(version, release)] = found
        return found


class Session:
    """CRDs prepared once for a whole run (several suites naming the same files share them)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, int, int], CrdEntry] = {}
        self.crd_cache: dict[str, Any] = {}
        self._policy_indexes: dict[int, ItemIndex] = {}

    def policy_index(self, suite: Suite) -> ItemIndex:
        """The policy expressions of ``suite``'s objects (:func:`crdtool.testing.coverage.index_policies`), once."""
        found = self._policy_indexes.get(id(suite))
        if found is None:
            found = self._policy_indexes[id(suite)] = index_policies(suite.objects)
            found._keep.append(suite)  # the suite's id stays its own
        return found

    def entries(self, suite: Suite) -> list[CrdEntry]:
        out = []
        for doc in suite.crds:
            key = (os.path.abspath(doc.file), doc.index, id(doc.data))
            entry = self._entries.get(key)
            if entry is None:
                entry = self._entries[key] = CrdEntry(doc)
            out.append(entry)
        return out

    def crd_for(self, suite: Suite, obj: Mapping[str, Any]) -> CrdEntry | None:
        """The suite's CRD of ``obj``'s group and kind, as kubectl finds the resource of an object (its REST
        mapping); None when no CRD defines them, whatever the number of CRDs. An object that names no kind or no
        apiVersion goes to a single CRD, whose decoding then reports what is missing."""
        entries = self.entries(suite)
        api_version = obj.get("apiVersion")
        kind = obj.get("kind")
        group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
        for entry in entries:
            if entry.group == group and entry.kind == kind:
                return entry
        unnamed = not (isinstance(api_version, str) and api_version) or not (isinstance(kind, str) and kind)
        return entries[0] if len(entries) == 1 and unnamed else None


# --------------------------------------------------------------------------------------------------
# Judging


@dataclass
class Verdict:
    """What the apiserver did with a case's request.

    ``errors`` (``FieldError`` values, decoding findings first), ``warnings`` (texts), ``stored`` (the object
    as stored: pruned, defaulted), ``pruned`` (field paths), ``request_error`` (the request could not be
    judged: no such version, no CRD of that kind; the text), ``events`` (each CEL rule evaluation:
    ``(rule, path, outcome, error)``), ``version`` (the CRD version used).
    """

    errors: list[Any] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stored: Any = None
    pruned: list[str] = field(default_factory=list)
    request_error: str | None = None
    events: list[tuple[Mapping[str, Any], str, str, Any]] = field(default_factory=list)
    version: str | None = None
    group_kind: str = ""
    name: str = ""
    #: a built-in object's ``metav1.Status`` (:func:`crdtool.core.registry.create.create_builtin`): its message is
    #: the apiserver's own
    api_status: dict[str, Any] | None = None


def _with_resource_version(obj: dict[str, Any]) -> dict[str, Any]:
    """An update's object carries the stored resourceVersion (kubectl edit/apply/replace send it)."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and meta.get("resourceVersion") not in (None, "", "0"):
        return obj
    out = dict(obj)
    out["metadata"] = {**(meta if isinstance(meta, dict) else {}), "resourceVersion": "1"}
    return out


def _judge(case: TestCase, entry: CrdEntry, release: str) -> Verdict:
    """Run ``case`` through the apiserver's create or update path of ``entry``'s CRD under ``release``.

    The one place that calls the judging API, with the CRD prepared for ``release`` (the apiserver of that
    release: its CEL environment, schema rules and error texts). A ``status`` subresource update runs the status strategy
    (:func:`crdtool.core.customresource.status_update.apply_status_update`).
    """
    from crdtool import CustomResourceError, apply_create, apply_update
    from crdtool.core.crdcel.validation import RULE_OBSERVER
    from crdtool.core.customresource.status_update import apply_status_update

    verdict = Verdict(version=case.version)
    events = verdict.events
    token = RULE_OBSERVER.set(lambda rule, path, outcome, err: events.append((rule, path, outcome, err)))
    try:
        if case.old_object is None:
            create = apply_create(case.object, entry.prepared(release), case.version, field_validation=case.field_validation,
                                  duplicate_fields=case.duplicate_fields)
            verdict.errors, verdict.warnings = list(create.errors), list(create.warnings)
            verdict.stored, verdict.pruned = create.stored, list(create.pruned)
        else:
            old = _with_resource_version(case.old_object)
            new = _with_resource_version(case.object)
            judge_update = apply_status_update if case.subresource == "status" else apply_update
            update = judge_update(new, old, entry.prepared(release), case.version, field_validation=case.field_validation,
                                  duplicate_fields=case.duplicate_fields)
            verdict.errors, verdict.warnings = list(update.errors), list(update.warnings)
            verdict.stored, verdict.pruned = update.stored, list(update.pruned)
    except CustomResourceError as exc:
        verdict.request_error = str(exc)
    finally:
        RULE_OBSERVER.reset(token)
    _link_events(verdict, release)
    if verdict.version is None:
        api_version = case.object.get("apiVersion")
        if isinstance(api_version, str):
            verdict.version = api_version.rpartition("/")[2]
    verdict.group_kind = f"{entry.kind}.{entry.group}" if entry.group else entry.kind
    meta = case.object.get("metadata")
    verdict.name = str(meta.get("name") or meta.get("generateName") or "") if isinstance(meta, dict) else ""
    return verdict


def _link_events(verdict: Verdict, release: str) -> None:
    """Point each rule event at the error the verdict holds.

    The CEL validator builds its errors with the newest release's ``field.Error`` text; the create and update
    paths render them for the judging release at the end (:meth:`crdtool.core.errors.FieldError.at_release`,
    a new object before 1.34), so an event's error is matched to the verdict's by that rendering -- else
    "rule: ... (file:line)" and ``errors[].rule`` were missing on 1.30 … 1.33 (issue 27, repro 07).
    """
    if not verdict.events or not verdict.errors:
        return
    from crdtool.core.releases import resolve_release

    held = {id(e) for e in verdict.errors}
    free = list(verdict.errors)
    rel = resolve_release(release)
    for i, (rule, path, outcome, err) in enumerate(verdict.events):
        if err is None or isinstance(err, str) or id(err) in held:  # a ratcheted error is its text
            continue
        rendered = err.at_release(rel)
        for j, candidate in enumerate(free):
            if candidate == rendered:
                verdict.events[i] = (rule, path, outcome, free.pop(j))
                break


def status_message(verdict: Verdict) -> str:
    """The message of the apiserver's answer to the request, as a client (envtest, kubectl) sees it.

    Invalid: ``<Kind>.<group> "<name>" is invalid: <errors>`` (``apierrors.NewInvalid``: the errors'
    ``ToAggregate``, duplicates dropped, several in ``[a, b]``); strict decoding findings: ``strict decoding
    error: <findings>``; nothing when the request succeeds.
    """
    if verdict.request_error:
        return verdict.request_error
    if verdict.api_status is not None:
        return str(verdict.api_status.get("message") or "")
    decode = [e for e in verdict.errors if e.type in ("UnknownField", "DuplicateField")]
    if decode:
        return "strict decoding error: " + ", ".join(str(e) for e in decode)
    messages = list(dict.fromkeys(str(e) for e in verdict.errors))
    if not messages:
        return ""
    body = messages[0] if len(messages) == 1 else "[" + ", ".join(messages) + "]"
    return f"{verdict.group_kind} {_go_quote(verdict.name)} is invalid: {body}"


def _go_quote(s: str) -> str:
    from crdtool.core.errors import go_quote

    return go_quote(s)


# --------------------------------------------------------------------------------------------------
# Expectations


def _error_matches(want: ExpectedError, got: Any, ignore_case: bool) -> bool:
    if want.field is not None and want.field != got.field:
        return False
    if want.type is not None and want.type != got.type:
        return False
    return want.text.matches(str(got), ignore_case)


def _assign(wants: tuple[ExpectedError, ...], gots: list[Any], ignore_case: bool) -> list[int | None]:
    """For each expected error the index of a distinct reported error it matches (a maximum matching)."""
    options = [[j for j, g in enumerate(gots) if _error_matches(w, g, ignore_case)] for w in wants]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in options[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(wants)):
        augment(i, set())
    out: list[int | None] = [None] * len(wants)
    for j, i in owner.items():
        out[i] = j
    return out


def _subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(_subset(a, b) for a, b in zip(want, got))
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    return bool(want == got)


def check(expect: Expectation, verdict: Verdict) -> list[str]:
    """What in ``verdict`` contradicts ``expect`` (empty: the case passes); one line each."""
    problems: list[str] = []
    if verdict.request_error is not None:
        return [f"the request was refused before validation: {verdict.request_error}"]
    errors = verdict.errors
    if expect.expects_valid:
        if errors:
            problems.append(f"expected the object to be valid, got {len(errors)} error{'s' if len(errors) != 1 else ''}")
    else:
        if not errors:
            problems.append("expected the object to be invalid, but it is valid")
        assigned = _assign(expect.errors, errors, expect.ignore_case)
        for want, got in zip(expect.errors, assigned):
            if got is None:
                problems.append(f"expected error not reported: {want.describe()}")
        if expect.errors and not expect.allow_other_errors:
            used = {j for j in assigned if j is not None}
            extra = [e for j, e in enumerate(errors) if j not in used]
            for e in extra:
                problems.append(f"unexpected error: {e}")
        message = status_message(verdict)
        for text in expect.status_message:
            if not text.matches(message, expect.ignore_case):
                problems.append(f"the apiserver's message does not contain {text.describe()}")
    for text in expect.warnings:
        if not any(text.matches(w, expect.ignore_case) for w in verdict.warnings):
            problems.append(f"expected warning not given: {text.describe()}")
    if expect.has_object and not _subset(expect.object, verdict.stored):
        problems.append("the stored object does not contain the object expected")
    if expect.pruned is not None and sorted(expect.pruned) != sorted(verdict.pruned):
        problems.append(f"pruned fields: expected {sorted(expect.pruned)}, got {sorted(verdict.pruned)}")
    return problems


# --------------------------------------------------------------------------------------------------
# Admission cases


class _ExpressionLog:
    """The :class:`crdtool.core.admission.policy.observer.ExpressionObserver` of one admission request: each
    observed expression evaluated, as ``(policy kind, policy name, manifest path, held)`` (``held``: a validation or
    matchCondition gave true; a mutation gave its patch without error)."""

    def __init__(self) -> None:
        self.paths: dict[int, tuple[str, str, str]] = {}
        self.events: list[tuple[str, str, str, bool]] = []
        self._keep: list[Any] = []

    def compiled(self, kind: str, name: str, expressions: list[tuple[str, Any]]) -> None:
        for path, compilation in expressions:
            self.paths[id(compilation)] = (kind, name, path)
            self._keep.append(compilation)

    def evaluated(self, compilation: Any, value: Any, error: str) -> None:
        where = self.paths.get(id(compilation))
        if where is None:
            return
        held = not error if ".mutations[" in where[2] else (value is True and not error)
        self.events.append((*where, held))


def admission_documents(suite: Suite, request: dict[str, Any]) -> list[Mapping[str, Any]]:
    """What ``crdtool admit`` would be given for an admission case: the suite's CRDs and objects, and an
    ``admission.k8s.io/v1`` AdmissionReview of ``request``."""
    review = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
              "request": {"uid": "", "userInfo": {}, **request}}
    return [*(d.data for d in suite.crds), *(d.data for d in suite.objects), review]


def _judge_admission(suite: Suite, case: TestCase, release: str) -> tuple[Any, list[tuple[str, str, str, bool]]]:
    """The admission chain's answer to the case's request under ``release`` (:func:`crdtool.core.admission.chain.admit`,
    the one ``crdtool admit`` runs) and the policy expressions it evaluated. Raises ``AdmitError``."""
    from crdtool.core.admission.chain import admit
    from crdtool.core.admission.policy.observer import EXPRESSION_OBSERVER

    log = _ExpressionLog()
    token = EXPRESSION_OBSERVER.set(log)
    try:
        answer = admit(admission_documents(suite, case.admission or {}), release, suite.feature_gates)
    finally:
        EXPRESSION_OBSERVER.reset(token)
    return answer, log.events


def check_admission(expect: AdmissionExpectation, answer: Any) -> list[str]:
    """What in ``answer`` (an ``AdmitResult``) contradicts ``expect`` (empty: the case passes); one line each."""
    problems: list[str] = []
    if answer.allowed != expect.allowed:
        if expect.allowed:
            problems.append(f"expected the request to be allowed, got denied ({answer.code} {answer.reason}): "
                            f"{answer.message}")
        else:
            problems.append("expected the request to be denied, but it is allowed")
    for text in expect.message:
        if not text.matches(answer.message, expect.ignore_case):
            problems.append(f"the refusal's message does not contain {text.describe()}")
    if expect.code is not None and expect.code != answer.code:
        problems.append(f"code: expected {expect.code}, got {answer.code}")
    if expect.reason is not None and expect.reason != answer.reason:
        problems.append(f"reason: expected {expect.reason!r}, got {answer.reason!r}")
    for text in expect.warnings:
        if not any(text.matches(w, expect.ignore_case) for w in answer.warnings):
            problems.append(f"expected warning not given: {text.describe()}")
    for key, value in (expect.audit_annotations or {}).items():
        got = answer.audit_annotations.get(key)
        if got is None:
            problems.append(f"expected audit annotation not published: {key}")
        elif got != value:
            problems.append(f"audit annotation {key}: expected {value!r}, got {got!r}")
    if expect.has_patched_object:
        if expect.patched_object is None and answer.patched_object is not None:
            problems.append("expected no mutation, but the object was patched")
        elif expect.patched_object is not None and answer.patched_object is None:
            problems.append("expected a patched object, but no mutation changed the object")
        elif expect.patched_object is not None and not _subset(expect.patched_object, answer.patched_object):
            problems.append("the patched object does not contain the object expected")
    return problems


def _run_admission(session: Session, suite: Suite, case: TestCase, release: str, coverage: Coverage | None,
                   multi_release: bool) -> CaseResult:
    """An admission case: its request through the admission chain, the answer checked, the expressions it
    evaluated recorded. Policies or bindings the apiserver would refuse at create fail the case (they take no
    part: a green case without them means nothing)."""
    from crdtool.core.admission.chain import AdmitError

    result = CaseResult(case, release, "passed", multi_release=multi_release)
    try:
        answer, events = _judge_admission(suite, case, release)
    except AdmitError as exc:
        result.outcome = "error"
        result.problems.append(f"the request cannot be made: {exc}")
        return result
    result.admission = answer
    result.problems = [f"{r.kind} {r.name!r} is refused by the apiserver on create (it takes no part): {e}"
                       for r in answer.rejected for e in r.errors]
    if result.problems:
        result.outcome = "error"
        return result
    result.problems = check_admission(case.admission_expect or AdmissionExpectation(True), answer)
    if result.problems:
        result.outcome = "failed"
    if coverage is not None:
        index = session.policy_index(suite)
        coverage.add_items(index)
        for kind, name, path, held in events:
            key = index.expressions.get((kind, name, path))
            if key is not None:
                coverage.record(key, held, case_id(case))
    return result


# --------------------------------------------------------------------------------------------------
# Results


@dataclass
class CaseResult:
    """One case under one release: ``outcome`` is ``passed``, ``failed`` or ``error`` (could not be run)."""

    case: TestCase
    release: str
    outcome: str
    problems: list[str] = field(default_factory=list)
    verdict: Verdict | None = None
    rules: dict[int, Any] = field(default_factory=dict)
    multi_release: bool = False
    step_verdicts: list[Verdict] = field(default_factory=list)  # a multi-step case: each step's, in order
    #: an admission case: the chain's answer (:class:`crdtool.core.admission.chain.AdmitResult`)
    admission: Any = None

    @property
    def name(self) -> str:
        return f"{self.case.name} [{self.release}]" if self.multi_release else self.case.name

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"

    def explain(self) -> str:
        """The failure, self-described: the problems, then expected vs got side by side, each error with the
        rule that produced it and where that rule is written."""
        return explain(self)

    def __getstate__(self) -> dict[str, Any]:
        # ``rules`` is keyed by the identity of the verdict's errors, which a pickle does not keep: sent to
        # another process (``crdtool test --jobs``), it is keyed by the error's place in ``verdict.errors``
        state = dict(self.__dict__)
        errors = self._errors()
        state["rules"] = {i: self.rules[id(e)] for i, e in enumerate(errors) if id(e) in self.rules}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        errors = self._errors()
        self.rules = {id(errors[i]): item for i, item in state["rules"].items()}

    def _errors(self) -> list[Any]:
        """Every reported error, in order (each step's of a multi-step case, the last step's verdict included once)."""
        verdicts = list(self.step_verdicts) or ([self.verdict] if self.verdict is not None else [])
        return [e for v in verdicts for e in v.errors]


def case_id(case: TestCase) -> str:
    return f"{case.file}::{case.name}"


def run_case(session: Session, suite: Suite, case: TestCase, release: str, coverage: Coverage | None = None,
             multi_release: bool = False) -> CaseResult:
    """Judge ``case`` under ``release`` and check it against its expectation; record coverage."""
    if case.admission is not None:
        return _run_admission(session, suite, case, release, coverage, multi_release)
    entry = session.crd_for(suite, case.object)
    if entry is None and _builtin_kind(case.object, release):
        return _run_builtin(case, release, multi_release)
    if entry is None:
        kinds = ", ".join(f"{e.kind}.{e.group}" for e in session.entries(suite)) or "none"
        return CaseResult(case, release, "error", [
            f"no CRD of the suite defines {case.object.get('kind')!r} of {case.object.get('apiVersion')!r} (CRDs: {kinds})"
        ], multi_release=multi_release)
    if case.steps:
        return _run_steps(entry, case, release, coverage, multi_release)
    verdict = _judge(case, entry, release)
    result = _checked(case, verdict, release, multi_release)
    _attribute(result, entry, verdict, release, coverage)  # nothing for a refused request
    return result


def _checked(case: TestCase, verdict: Verdict, release: str, multi_release: bool) -> CaseResult:
    """``case``'s result from ``verdict``: passed, failed, or an error (a refused request the case did not
    expect)."""
    result = CaseResult(case, release, "passed", verdict=verdict, multi_release=multi_release)
    if verdict.request_error is not None and not case.expect.expects_valid and _request_error_expected(case.expect, verdict):
        return result
    result.problems = check(case.expect, verdict)
    if result.problems:
        result.outcome = "error" if verdict.request_error is not None else "failed"
    return result


def _builtin_kind(obj: Mapping[str, Any], release: str) -> bool:
    """Whether ``obj``'s apiVersion and kind are a built-in kind of ``release`` (served or not: an unserved one gets
    kubectl's ``no matches for kind``)."""
    from crdtool.core.builtin import catalog
    from crdtool.core.releases import resolve_release

    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return False
    return catalog.kind_info(resolve_release(release), api_version, kind) is not None


def _judge_builtin(case: TestCase, release: str) -> Verdict:
    """A built-in object through ``release``'s create path (:func:`crdtool.core.registry.create.create_builtin`):
    strict decoding, ``SetDefaults_*``, the strategy's ``PrepareForCreate``, native validation. An unserved
    group-version is a refused request (kubectl's RESTMapper answers before any request)."""
    from crdtool.core.registry.create import NOT_SERVED, create_builtin

    created = create_builtin(case.object, release, field_validation=case.field_validation,
                             duplicate_fields=case.duplicate_fields)
    verdict = Verdict(errors=list(created.errors), warnings=list(created.warnings), stored=created.object,
                      api_status=created.status)
    info = created.kind_info
    if created.outcome == NOT_SERVED or info is None:
        verdict.request_error = str(created.status.get("message") or "")
    else:
        verdict.version = info.version
    meta = case.object.get("metadata")
    verdict.name = str(meta.get("name") or meta.get("generateName") or "") if isinstance(meta, dict) else ""
    return verdict


def _run_builtin(case: TestCase, release: str, multi_release: bool) -> CaseResult:
    """A case whose object is a built-in kind: a create only (the apiserver's update paths of built-in kinds are
    not modelled)."""
    if case.old_object is not None or case.steps or case.subresource:
        return CaseResult(case, release, "error", [
            f"{case.object.get('kind')} is a built-in kind: crdtool judges its create only (no oldObject, steps or "
            "subresource)"], multi_release=multi_release)
    return _checked(case, _judge_builtin(case, release), release, multi_release)


def _attribute(result: CaseResult, entry: CrdEntry, verdict: Verdict, release: str, coverage: Coverage | None) -> None:
    """Each CEL error of ``verdict`` to the rule that produced it (``result.rules``); the coverage recorded."""
    if not verdict.version or verdict.request_error is not None:
        return
    index = entry.index(verdict.version, release)
    for rule, _, _, err in verdict.events:
        if err is not None:
            key = index.rules.get(id(rule))
            if key is not None:
                result.rules[id(err)] = index.items[key]
    if coverage is not None:
        _record(coverage, entry, index, verdict, case_id(result.case), release)


def _run_steps(entry: CrdEntry, case: TestCase, release: str, coverage: Coverage | None,
               multi_release: bool) -> CaseResult:
    """A multi-step case as a controller would exercise it: the first step created, each later step an update of
    the object stored so far (``metadata.resourceVersion`` carried), a refused request storing nothing. Each step
    is checked against its own expectation; a problem names its step."""
    from dataclasses import replace

    result = CaseResult(case, release, "passed", multi_release=multi_release)
    stored: dict[str, Any] | None = None
    for number, step in enumerate(case.steps, start=1):
        if number > 1 and stored is None:
            result.outcome = "error"
            result.problems.append(f"step {number}: nothing is stored to update (the create was refused)")
            break
        single = replace(case, object=step.object, old_object=stored, expect=step.expect, subresource=step.subresource,
                         duplicate_fields=step.duplicate_fields, steps=())
        verdict = _judge(single, entry, release)
        result.step_verdicts.append(verdict)
        result.verdict = verdict
        if verdict.request_error is not None and not (
                not step.expect.expects_valid and _request_error_expected(step.expect, verdict)):
            result.outcome = "error"
            result.problems.append(f"step {number} ({single.operation}): the request was refused before validation: "
                                   f"{verdict.request_error}")
            break
        problems = check(step.expect, verdict) if verdict.request_error is None else []
        if problems and result.outcome == "passed":
            result.outcome = "failed"
        result.problems.extend(f"step {number} ({single.operation}): {p}" for p in problems)
        _attribute(result, entry, verdict, release, coverage)
        if not verdict.errors and verdict.request_error is None and isinstance(verdict.stored, dict):
            stored = _next_resource_version(verdict.stored, stored)
    return result


def _next_resource_version(obj: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """The stored object with the resourceVersion storage gives it (1 on create, one more on each update)."""
    meta = before.get("metadata") if isinstance(before, dict) else None
    current = meta.get("resourceVersion") if isinstance(meta, dict) else None
    number = int(current) + 1 if isinstance(current, str) and current.isdigit() else 1
    out = dict(obj)
    out["metadata"] = {**(obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}),
                       "resourceVersion": str(number)}
    return out


def _request_error_expected(expect: Expectation, verdict: Verdict) -> bool:
    """A request refused before validation (``no matches for kind``) passes a case that expects exactly that text."""
    texts = [*expect.status_message, *(e.text for e in expect.errors if e.field is None and e.type is None)]
    return bool(texts) and all(t.matches(verdict.request_error or "", expect.ignore_case) for t in texts)


def _record(coverage: Coverage, entry: CrdEntry, index: ItemIndex, verdict: Verdict, name: str, release: str) -> None:
    coverage.add_items(index)
    for rule, _, outcome, _ in verdict.events:
        key = index.rules.get(id(rule))
        if key is None or outcome == "skipped":
            continue
        coverage.record(key, outcome == "pass", name)
    version = verdict.version or ""
    root = schema_root(entry.manifest, version)
    ver = entry.prepared(release).version(version)
    if root is None or ver is None or verdict.stored is None:
        return
    prefix = f"{entry.doc.file}#{entry.name}/{version}:"
    for path, held in constraint_outcomes(ver.schema, verdict.stored, root):
        key = prefix + path
        if key in index.items:
            coverage.record(key, held, name)


@dataclass
class RunResult:
    """Every case result of a run, the suites' reading problems, and the coverage."""

    results: list[CaseResult] = field(default_factory=list)
    suite_errors: list[Any] = field(default_factory=list)
    coverage: Coverage = field(default_factory=Coverage)
    deselected: int = 0
    not_run: int = 0

    @property
    def failed(self) -> list[CaseResult]:
        return [r for r in self.results if r.outcome != "passed"]


def releases_for(case: TestCase, suite: Suite, override: tuple[str, ...] | None,
                 default: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """``--kubernetes-version`` wins; else the case's, else the suite's ``kubernetesVersions``; else ``default``
    (``$CRDTOOL_KUBERNETES_VERSION`` or the configuration's ``kubernetesVersion``), else the default release."""
    return override or case.kubernetes_versions or suite.kubernetes_versions or default or (DEFAULT_RELEASE,)


@dataclass(frozen=True)
class CaseRun:
    """One case to run under one release (``multi_release``: the case runs under several)."""

    suite: Suite
    case: TestCase
    release: str
    multi_release: bool = False

    def run(self, session: Session, coverage: Coverage | None = None) -> CaseResult:
        """:func:`run_case` of this case under this release."""
        return run_case(session, self.suite, self.case, self.release, coverage, multi_release=self.multi_release)


def plan(suites: Iterable[Suite], *, releases: tuple[str, ...] | None = None,
         select: Callable[[str], bool] | None = None,
         default: tuple[str, ...] | None = None, session: Session | None = None) -> tuple[list[CaseRun], RunResult]:
    """The case runs of ``suites`` in order (each selected case under each of its releases, see
    :func:`releases_for`), and the :class:`RunResult` to fill: the suites' reading problems, the number of
    cases deselected, and the suites not run: a suite whose CRDs are ambiguous, or one of whose CRDs the
    apiserver refuses at a release its cases run under (:func:`crd_refusals`, with ``session``'s CRDs)."""
    out = RunResult()
    runs: list[CaseRun] = []
    session = session or Session()
    for suite in suites:
        out.suite_errors.extend(suite.errors)
        mine: list[CaseRun] = []
        for case in suite.cases:
            if select is not None and not select(f"{os.path.basename(suite.file)} {case.name}"):
                out.deselected += 1
                continue
            wanted = releases_for(case, suite, releases, default)
            mine.extend(CaseRun(suite, case, release, len(wanted) > 1) for release in wanted)
        if (suite.errors and not suite.crds) or any(e.kind in BLOCKING_KINDS for e in suite.errors):
            out.not_run += len(mine)
            continue
        refused = crd_refusals(suite, session, dict.fromkeys(r.release for r in mine)) if suite.check_crds else []
        if refused:
            out.suite_errors.extend(refused)
            out.not_run += len(mine)
            continue
        runs.extend(mine)
    return runs, out


def crd_refusals(suite: Suite, session: Session, releases: Iterable[str]) -> list[SuiteError]:
    """A suite error for each CRD of ``suite`` the apiserver of one of ``releases`` refuses to create, carrying
    the apiserver's errors (the releases that answer alike share one error); empty when every CRD would be
    created at every release. A green case against a CRD no cluster would accept means nothing."""
    wanted = sorted(releases, key=lambda r: tuple(int(p) for p in r.split(".")))
    out: list[SuiteError] = []
    for entry in session.entries(suite):
        by_answer: dict[tuple[str, ...], list[str]] = {}
        for release in wanted:
            errors = entry.refusal(release)
            if errors:
                by_answer.setdefault(errors, []).append(release)
        for errors, where in by_answer.items():
            name = entry.name or "(no name)"
            text = (f"CRD {name} ({entry.where}) is refused by the apiserver of Kubernetes {', '.join(where)} on "
                    f"create; none of this suite's cases is run:\n" + "\n".join(f"  {e}" for e in errors))
            out.append(SuiteError(suite.file, 0, text, kind="crd-invalid"))
    return out


def run(suites: Iterable[Suite], *, releases: tuple[str, ...] | None = None, select: Callable[[str], bool] | None = None,
        session: Session | None = None, on_result: Callable[[CaseResult], None] | None = None,
        default: tuple[str, ...] | None = None) -> RunResult:
    """Run every (selected) case of ``suites`` under its releases (:func:`releases_for`); coverage over all."""
    session = session or Session()
    runs, out = plan(suites, releases=releases, select=select, default=default, session=session)
    for r in runs:
        result = r.run(session, out.coverage)
        out.results.append(result)
        if on_result is not None:
            on_result(result)
    return out


class CoverageLog(Coverage):
    """A :class:`Coverage` that keeps what is done to it, to be done again to another one (:meth:`replay`):
    how a worker process of ``crdtool test --jobs`` hands its share of the coverage back, in order. An
    index's items are kept once (adding them again changes nothing)."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[tuple[Any, ...]] = []
        self._indexed: set[int] = set()

    def add_items(self, index: ItemIndex) -> None:
        if id(index) not in self._indexed:
            self._indexed.add(id(index))
            self.log.append(("items", list(index.items.values())))

    def record(self, key: str, held: bool, case: str) -> None:
        self.log.append(("record", key, held, case))

    @staticmethod
    def replay(log: list[tuple[Any, ...]], coverage: Coverage) -> None:
        """Do to ``coverage`` what was done to the log's :class:`CoverageLog`."""
        for entry in log:
            if entry[0] == "items":
                for item in entry[1]:
                    coverage.items.setdefault(item.key, item)
            else:
                coverage.record(*entry[1:])


# --------------------------------------------------------------------------------------------------
# -k expressions


_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def compile_selector(expression: str) -> Callable[[str], bool]:
    """pytest's ``-k``: ``words``, ``and``, ``or``, ``not`` and parentheses; a word matches when it is a
    case-insensitive substring of the case's id (the suite file's name and the case's name).

    Raises ``ValueError`` for a malformed expression.
    """
    tokens = _TOKEN.findall(expression)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(tokens):
            raise ValueError(f"-k {expression!r}: unexpected end of the expression")
        pos += 1
        return tokens[pos - 1]

    def expr() -> Callable[[str], bool]:
        left = term()
        while peek() == "or":
            take()
            right = term()
            left = (lambda a, b: lambda s: a(s) or b(s))(left, right)
        return left

    def term() -> Callable[[str], bool]:
        left = factor()
        while peek() == "and":
            take()
            right = factor()
            left = (lambda a, b: lambda s: a(s) and b(s))(left, right)
        return left

    def factor() -> Callable[[str], bool]:
        token = take()
        if token == "not":
            inner = factor()
            return lambda s: not inner(s)
        if token == "(":
            inner = expr()
            if take() != ")":
                raise ValueError(f"-k {expression!r}: ')' expected")
            return inner
        if token in (")", "and", "or"):
            raise ValueError(f"-k {expression!r}: unexpected {token!r}")
        word = token.lower()
        return lambda s: word in s.lower()

    if not tokens:
        return lambda s: True
    matcher = expr()
    if pos != len(tokens):
        raise ValueError(f"-k {expression!r}: unexpected {tokens[pos]!r}")
    return matcher


# --------------------------------------------------------------------------------------------------
# Explaining a failure


def _rule_note(result: CaseResult, err: Any) -> str | None:
    item = result.rules.get(id(err))
    if item is None:
        return None
    return f"rule: {item.text}  ({item.file}:{item.line})"


def explain(result: CaseResult) -> str:
    """A failing case in words: what went wrong, then expected (left) against got (right); for a multi-step
    case, that table for each step that went wrong."""
    case, verdict = result.case, result.verdict
    lines = [f"{case.file}:{case.line}: {case.operation} {result.name!r}"]
    lines.extend(f"  {p}" for p in result.problems)
    if case.admission is not None:
        if result.admission is not None and case.admission_expect is not None:
            lines.append(_admission_table(case.admission_expect, result.admission))
        return "\n".join(lines)
    if case.steps:
        for number, (step, got) in enumerate(zip(case.steps, result.step_verdicts), start=1):
            if got.request_error is None and check(step.expect, got):
                lines.append(f"  step {number} ({'CREATE' if number == 1 else 'UPDATE'}, line {step.line}):")
                lines.append(_table(result, step.expect, got))
        return "\n".join(lines)
    if verdict is None or verdict.request_error is not None:
        return "\n".join(lines)
    lines.append(_table(result, case.expect, verdict))
    return "\n".join(lines)


def _table(result: CaseResult, expect: Expectation, verdict: Verdict) -> str:
    """Expected (left) against got (right) for one request."""
    left: list[str] = []
    if expect.expects_valid:
        left.append("valid")
    for e in expect.errors:
        left.append(e.describe())
    for t in expect.status_message:
        left.append(f"message contains {t.describe()}")
    if not expect.expects_valid and not expect.errors and not expect.status_message:
        left.append("some error")
    right: list[str] = []
    for e in verdict.errors:
        right.append(str(e))
        note = _rule_note(result, e)
        if note:
            right.append("  " + note)
    if not verdict.errors:
        right.append("valid")
    for w in verdict.warnings:
        right.append(f"warning: {w}")
    if expect.status_message:  # the whole text the expectations were looked for in, to read or copy
        right.append(f"message: {status_message(verdict) or '(none: the request succeeds)'}")
    return _side_by_side(left, right)


def _admission_table(expect: AdmissionExpectation, answer: Any) -> str:
    """Expected (left) against the admission chain's answer (right)."""
    left = ["allowed" if expect.allowed else "denied"]
    left.extend(f"message contains {t.describe()}" for t in expect.message)
    if expect.code is not None or expect.reason is not None:
        left.append(f"code {expect.code if expect.code is not None else 'any'} "
                    f"reason {expect.reason if expect.reason is not None else 'any'}")
    left.extend(f"warning {t.describe()}" for t in expect.warnings)
    left.extend(f"audit annotation {k}: {v}" for k, v in (expect.audit_annotations or {}).items())
    if expect.has_patched_object:
        left.append("patched object (a subset)" if expect.patched_object is not None else "no mutation")
    right = ["allowed" if answer.allowed else f"denied ({answer.code} {answer.reason}): {answer.message}"]
    right.extend(f"warning: {w}" for w in answer.warnings)
    right.extend(f"audit annotation {k}: {v}" for k, v in answer.audit_annotations.items())
    if answer.patched_object is not None:
        from crdtool.core.gojson import go_json_dumps

        right.append(f"patched object: {go_json_dumps(answer.patched_object, indent=None)}")
    return _side_by_side(left, right)


def _side_by_side(left: list[str], right: list[str], width: int = 44) -> str:
    out = [f"  {'expected':<{width}} | got"]
    out.append(f"  {'-' * width}-+-{'-' * width}")
    wrapped_left = [piece for line in left for piece in _wrap(line, width)]
    for i in range(max(len(wrapped_left), len(right))):
        a = wrapped_left[i] if i < len(wrapped_left) else ""
        b = right[i] if i < len(right) else ""
        out.append(f"  {a:<{width}} | {b}".rstrip())
    return "\n".join(out)


def _wrap(text: str, width: int) -> list[str]:
    if len(text) <= width:
        return [text]
    return [text[i:i + width] for i in range(0, len(text), width)]
