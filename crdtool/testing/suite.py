"""Test suites for a CRD's validation rules: the ``*.crdtest.yaml`` format, read into plain dataclasses.

Two forms (``crdtool/testing/crdtest.schema.json`` is the JSON Schema of the first):

* **a suite**: one YAML document with ``crds`` (paths relative to the file) and ``cases``::

      crds: [../config/crd/widgets.yaml]
      kubernetesVersions: "1.33-1.37"       # optional; each case runs under each release
      cases:
        - name: replicas must be positive
          object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {replicas: 0}}
          expect:
            errors:
              - {field: spec.replicas, type: FieldValueInvalid, message: "greater than or equal to 1"}
        - name: the image is immutable
          oldObject: {... spec: {image: a}}  # an UPDATE: transition rules and ratcheting
          object: {... spec: {image: b}}
          expect: {errors: [{field: spec.image, message: immutable}]}

* **a manifest** whose leading comment says what to expect (kubectl-validate's style); every document of
  the file is one case::

      # crd: ../config/crd/widgets.yaml
      # expect: FieldValueInvalid spec.replicas "greater than or equal to 1"
      apiVersion: example.com/v1
      kind: Widget
      ...

  Header lines: ``# crd: PATH`` (repeatable), ``# old: PATH`` (the stored object: the case is an UPDATE),
  ``# version: NAME``, ``# kubernetes-versions: 1.33,1.37``, ``# field-validation: Warn``, and ``# expect:``
  lines: ``valid``, ``invalid``, or ``[TYPE] [FIELD] ["message substring"]`` (one line per expected error;
  a word is a TYPE when it is an upstream ``field.ErrorType`` name).

  A suite may also hold ``objects`` (admission policies, their bindings, params objects, Namespaces; paths or
  inline manifests), ``featureGates``, and **admission cases**: ``admission`` (the request of an AdmissionReview)
  with an ``expect`` of the admission chain's answer::

      objects: [../policies.yaml]
      cases:
        - name: over the limit
          admission: {operation: CREATE, userInfo: {username: bob}, object: {...}}
          expect: {allowed: false, code: 403, message: "... denied request: at most 5",
                   warnings: [...], auditAnnotations: {p/key: value}, patchedObject: {...}}

Nothing here judges objects; :mod:`crdtool.testing.runner` does. Reading never raises for bad input: a
problem is a :class:`SuiteError` with file and line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from crdtool.yaml import Document, InputError, load_documents, load_path

__all__ = [
    "ADMISSION_OPERATIONS", "AdmissionExpectation", "BLOCKING_KINDS", "ERROR_TYPES", "ExpectedError", "ExpectedText",
    "Expectation", "InlineCrd", "Step", "Suite",
    "SuiteError", "TestCase",
    "is_suite_file", "load_suite", "SUITE_GLOB",
]

#: What ``crdtool test`` looks for in directories.
SUITE_GLOB = "*.crdtest.yaml"
SUITE_SUFFIXES = (".crdtest.yaml", ".crdtest.yml")

#: Upstream ``field.ErrorType`` names, the strict decoder's findings and crdtool's storage refusal.
ERROR_TYPES = (
    "FieldValueNotFound", "FieldValueRequired", "FieldValueDuplicate", "FieldValueInvalid", "FieldValueNotSupported",
    "FieldValueForbidden", "FieldValueTooLong", "FieldValueTooMany", "InternalError", "FieldValueTypeInvalid",
    "UnknownField", "DuplicateField", "UnmarshalTypeError",
)
FIELD_VALIDATIONS = ("Strict", "Warn", "Ignore")
#: The kinds of :class:`SuiteError` that keep all of a suite's cases from running.
BLOCKING_KINDS = frozenset({"crds", "crd-invalid"})
SUBRESOURCES = ("status",)


@dataclass(frozen=True)
class SuiteError:
    """A suite that cannot be read as written: ``file:line: message``.

    ``kind``: ``input`` (exit 2; the suite's other cases still run), ``crds`` (its CRDs are ambiguous: two of one
    name; exit 2, none of its cases runs) or ``crd-invalid`` (the apiserver refuses to create one of its CRDs at a
    release the suite runs under: a finding, exit 1, none of its cases runs)."""

    file: str
    line: int
    message: str
    kind: str = "input"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line > 0 else f"{self.file}: {self.message}"


@dataclass(frozen=True)
class ExpectedText:
    """A message to find: a substring (``message``) or a Python regular expression searched for (``regex``)."""

    message: str | None = None
    regex: str | None = None

    def matches(self, text: str, ignore_case: bool = False) -> bool:
        if self.regex is not None:
            return re.search(self.regex, text, re.IGNORECASE if ignore_case else 0) is not None
        if self.message is None:
            return True
        if ignore_case:
            return self.message.lower() in text.lower()
        return self.message in text

    def describe(self) -> str:
        if self.regex is not None:
            return f"/{self.regex}/"
        return repr(self.message) if self.message is not None else "any"


@dataclass(frozen=True)
class ExpectedError:
    """One error a case expects: every given part must match the same reported error.

    ``field``: the exact upstream field path (``spec.listeners[0].port``; ``<nil>`` for the root's CEL rules);
    ``type``: the upstream ``field.ErrorType`` name; ``text``: found in the whole message
    (``spec.x: Invalid value: 0: must be positive``).
    """

    field: str | None = None
    type: str | None = None
    text: ExpectedText = ExpectedText()

    def describe(self) -> str:
        parts = [p for p in (self.field, self.type) if p]
        if self.text.message is not None or self.text.regex is not None:
            parts.append(self.text.describe())
        return " ".join(parts) or "any error"


@dataclass(frozen=True)
class Expectation:
    """What a case expects.

    ``valid``: True (no error), False (some error) or None (implied by the rest). ``errors``: each must match a
    distinct reported error; errors no entry matches fail the case unless ``allow_other_errors``.
    ``status_message``: texts to find in the apiserver's response message (``Kind.group "name" is invalid:
    [...]``, what envtest suites compare: gateway-api's and envoy-gateway's ``wantErrors``). ``warnings``: each
    must match some warning. ``object``: a subset the stored object (pruned, defaulted) must contain.
    ``pruned``: the exact set of pruned field paths. ``ignore_case``: substring matches ignore case.
    """

    valid: bool | None = None
    errors: tuple[ExpectedError, ...] = ()
    allow_other_errors: bool = False
    status_message: tuple[ExpectedText, ...] = ()
    warnings: tuple[ExpectedText, ...] = ()
    object: Any = None
    has_object: bool = False
    pruned: tuple[str, ...] | None = None
    ignore_case: bool = False

    @property
    def expects_valid(self) -> bool:
        if self.valid is not None:
            return self.valid
        return not (self.errors or self.status_message)


#: The operations of an admission case (``admission.operation``), as ``request.operation`` of an AdmissionReview.
ADMISSION_OPERATIONS = ("CREATE", "UPDATE", "DELETE", "CONNECT")


@dataclass(frozen=True)
class AdmissionExpectation:
    """What an admission case expects of the admission chain's answer (:class:`crdtool.core.admission.chain.AdmitResult`).

    ``allowed``: the decision; ``message``: texts to find in the refusal's message (``widgets.example.com "w"
    is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...``); ``code``/``reason``: the
    ``metav1.Status`` code and reason; ``warnings``: each must match some admission warning;
    ``audit_annotations``: each key must be published with exactly that value; ``patched_object``: a subset the
    object as mutated must contain (``has_patched_object`` with ``patched_object`` None: no mutation changed it).
    """

    allowed: bool
    message: tuple[ExpectedText, ...] = ()
    code: int | None = None
    reason: str | None = None
    warnings: tuple[ExpectedText, ...] = ()
    audit_annotations: dict[str, str] | None = None
    patched_object: Any = None
    has_patched_object: bool = False
    ignore_case: bool = False


@dataclass(frozen=True)
class Step:
    """One request of a multi-step case: the first a CREATE of ``object``, each later one an UPDATE of the
    object the earlier steps left stored (a refused request stores nothing), ``subresource: status`` for an
    update of the status subresource. ``raw_expect``: the ``expect`` mapping as written (``--update``)."""

    object: dict[str, Any]
    expect: Expectation
    line: int
    raw_expect: Any = None
    subresource: str | None = None
    duplicate_fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class TestCase:
    """One case: an object judged on the create path, or on the update path when ``old_object`` is given.

    ``kubernetes_versions``: the releases to run it under (``None``: the suite's, else the default release).
    ``subresource``: ``status`` for an update of the status subresource. ``line``: where it is written.
    ``admission``: an admission case's request (the ``request`` of an ``admission.k8s.io/v1`` AdmissionReview:
    ``operation``, ``object``, ``oldObject``, ``namespace``, ``userInfo``, ...) judged by the admission chain,
    with ``admission_expect`` (``object`` is then the request's object, else its old object, else ``{}``).
    """

    name: str
    file: str
    line: int
    object: dict[str, Any]
    expect: Expectation
    old_object: dict[str, Any] | None = None
    version: str | None = None
    kubernetes_versions: tuple[str, ...] | None = None
    field_validation: str = "Strict"
    subresource: str | None = None
    duplicate_fields: tuple[str, ...] = ()
    raw_expect: Any = None
    steps: tuple[Step, ...] = ()
    admission: dict[str, Any] | None = None
    admission_expect: AdmissionExpectation | None = None

    @property
    def operation(self) -> str:
        if self.admission is not None:
            return str(self.admission.get("operation") or "CREATE")
        if self.steps:
            return f"{len(self.steps)} STEPS"
        return "UPDATE" if self.old_object is not None else "CREATE"

    __test__ = False  # not a pytest class


@dataclass(frozen=True)
class InlineCrd:
    """A CRD (or, in ``objects``, any object) written inside a suite (``crds: [{apiVersion: apiextensions.k8s.io/v1, ...}]``): a
    :class:`~crdtool.yaml.Document` look-alike whose positions are those of the suite file."""

    file: str
    index: int
    line: int
    data: dict[str, Any]
    suite_doc: Document | None = None
    prefix: str = ""

    def position(self, path: str) -> tuple[int, int] | None:
        if self.suite_doc is None:
            return (self.line, 1)
        return self.suite_doc.position(f"{self.prefix}.{path}" if path else self.prefix)


@dataclass
class Suite:
    """A suite file read: its CRD documents, its cases, and what could not be read."""

    file: str
    crd_paths: tuple[str, ...]
    cases: list[TestCase] = field(default_factory=list)
    crds: list[Any] = field(default_factory=list)  # Document or InlineCrd
    errors: list[SuiteError] = field(default_factory=list)
    kubernetes_versions: tuple[str, ...] | None = None
    form: str = "suite"
    #: judge the suite's CRDs on create before any case (``checkCrds: false`` for CRDs that only carry a schema to a
    #: validator test, as upstream's unit tests of schema/cel do; never for manifests that ship)
    check_crds: bool = True
    #: the suite's other objects (``objects:``): admission policies and their bindings, params objects, Namespaces
    #: (``Document`` or :class:`InlineCrd`), which every admission case's request meets
    objects: list[Any] = field(default_factory=list)
    object_paths: tuple[str, ...] = ()
    #: ``featureGates`` of the admission cases (``MutatingAdmissionPolicy: true`` before 1.36)
    feature_gates: dict[str, bool] = field(default_factory=dict)

    __test__ = False


# --------------------------------------------------------------------------------------------------
# Reading


def is_suite_file(path: str) -> bool:
    return path.endswith(SUITE_SUFFIXES)


def load_suite(path: str, text: str | bytes | None = None, crd_cache: dict[str, list[Document | InputError]] | None = None) -> Suite:
    """Read the suite (or annotated manifest) at ``path``; ``text`` is its content when already read.

    CRD paths are resolved against the file's directory and loaded with :func:`crdtool.yaml.load_path`
    (``crd_cache`` shares them between suites). Never raises for bad input: see ``Suite.errors``.
    """
    if text is None:
        try:
            with open(path, "rb") as fh:
                text = fh.read()
        except OSError as exc:
            suite = Suite(path, ())
            suite.errors.append(SuiteError(path, 0, f"cannot read: {exc.strerror or exc}"))
            return suite
    raw = text.encode("utf-8") if isinstance(text, str) else text
    items = load_documents(raw, path)
    problems = [i for i in items if isinstance(i, InputError)]
    docs = [i for i in items if isinstance(i, Document)]
    if problems:
        suite = Suite(path, ())
        suite.errors.extend(SuiteError(path, p.line, p.message) for p in problems)
        return suite
    suites = [d for d in docs if "cases" in d.data and "apiVersion" not in d.data]
    if suites and len(docs) > 1:
        suite = Suite(path, ())
        lines = ", ".join(str(d.line) for d in docs)
        suite.errors.append(SuiteError(path, docs[1].line, f"a suite is one YAML document; this file holds {len(docs)} "
                                                          f"(at lines {lines}): write each suite in a file of its own"))
        return suite
    if suites:
        suite = _read_suite(path, docs[0])
    else:
        suite = _read_manifest(path, raw.decode("utf-8", "replace"), docs)
    _load_crds(suite, crd_cache if crd_cache is not None else {})
    return suite


def _resolve(base_file: str, rel: str) -> str:
    if os.path.isabs(rel):
        return rel
    return os.path.normpath(os.path.join(os.path.dirname(base_file) or ".", rel))


def _load_objects(suite: Suite, cache: dict[str, list[Document | InputError]]) -> None:
    """The documents of ``objects:`` files: CRDs among them join the suite's CRDs, the rest its objects."""
    for path in suite.object_paths:
        key = os.path.abspath(path)
        if key not in cache:
            cache[key] = list(load_path(path))
        for item in cache[key]:
            if isinstance(item, InputError):
                suite.errors.append(SuiteError(suite.file, 0, f"objects {path}: {item}"))
                continue
            subs = (item.data["items"] if item.data.get("kind") == "List" and isinstance(item.data.get("items"), list)
                    else [item.data])
            for sub in subs:
                if not isinstance(sub, dict):
                    continue
                doc = item if sub is item.data else Document(item.file, item.index, item.line, sub)
                (suite.crds if sub.get("kind") == "CustomResourceDefinition" else suite.objects).append(doc)


def _load_crds(suite: Suite, cache: dict[str, list[Document | InputError]]) -> None:
    _load_objects(suite, cache)
    if (not suite.crd_paths and not suite.crds and not suite.objects and not suite.object_paths and not suite.errors
            and not suite.cases):
        suite.errors.append(SuiteError(suite.file, 1, "no CRD given (crds: in a suite, '# crd: PATH' in a manifest)"))
    for path in suite.crd_paths:
        key = os.path.abspath(path)
        if key not in cache:
            cache[key] = list(load_path(path))
        found = 0
        for item in cache[key]:
            if isinstance(item, InputError):
                suite.errors.append(SuiteError(suite.file, 0, f"crd {path}: {item}"))
            elif item.data.get("kind") == "CustomResourceDefinition":
                suite.crds.append(item)
                found += 1
            elif item.data.get("kind") == "List" and isinstance(item.data.get("items"), list):
                for sub in item.data["items"]:
                    if isinstance(sub, dict) and sub.get("kind") == "CustomResourceDefinition":
                        suite.crds.append(Document(item.file, item.index, item.line, sub))
                        found += 1
        if not found and not any(isinstance(i, InputError) for i in cache[key]):
            suite.errors.append(SuiteError(suite.file, 0, f"crd {path}: no CustomResourceDefinition found"))
    _one_crd_per_name(suite)


def _one_crd_per_name(suite: Suite) -> None:
    """The same document named twice (``crds: [a.yaml, a.yaml]``) counts once; two CRDs of one name are a suite
    error naming both places: the apiserver holds one CRD per name, and which one a case meets would be
    a guess."""
    kept: list[Any] = []
    seen: set[tuple[str, int, int]] = set()
    first: dict[str, Any] = {}
    for doc in suite.crds:
        key = (os.path.abspath(doc.file), doc.index, id(doc.data))
        if key in seen:
            continue
        seen.add(key)
        kept.append(doc)
        meta = doc.data.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        if not isinstance(name, str) or not name:
            continue
        if name in first:
            other = first[name]
            suite.errors.append(SuiteError(suite.file, 0, f"two CRDs named {name}: {other.file}:{other.line} and "
                                                          f"{doc.file}:{doc.line} (the apiserver holds one CRD per name)",
                                           kind="crds"))
            continue
        first[name] = doc
    suite.crds = kept


_SUITE_KEYS = {"crds", "cases", "kubernetesVersions", "fieldValidation", "ignoreCase", "allowOtherErrors", "description",
               "checkCrds", "objects", "featureGates"}
_CASE_KEYS = {
    "name", "object", "objectFile", "oldObject", "oldObjectFile", "version", "kubernetesVersions", "fieldValidation",
    "subresource", "expect", "description", "steps", "admission",
}
_ADMISSION_KEYS = {"operation", "object", "objectFile", "oldObject", "oldObjectFile", "namespace", "name", "userInfo",
                   "subResource", "dryRun", "options", "kind", "resource"}
_ADMISSION_EXPECT_KEYS = {"allowed", "message", "code", "reason", "warnings", "auditAnnotations", "patchedObject",
                          "ignoreCase"}
_STEP_KEYS = {"object", "objectFile", "subresource", "expect", "description"}
_EXPECT_KEYS = {"valid", "errors", "allowOtherErrors", "statusMessage", "warnings", "object", "pruned", "ignoreCase"}
_ERROR_KEYS = {"field", "type", "message", "messageRegex"}


class _Bad(Exception):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def _read_suite(path: str, doc: Document) -> Suite:
    data = doc.data
    suite = Suite(path, ())

    def line(where: str) -> int:
        pos = doc.position(where)
        return pos[0] if pos else doc.line

    def bad(where: str, message: str) -> None:
        suite.errors.append(SuiteError(path, line(where), message))

    for key in data:
        if key not in _SUITE_KEYS:
            bad(str(key), f"unknown key {key!r} (expected one of {', '.join(sorted(_SUITE_KEYS))})")
    crds = data.get("crds")
    if isinstance(crds, str):
        crds = [crds]
    if crds is None:
        crds = []  # a suite of built-in objects, or of admission cases on built-in kinds, needs no CRD
    elif not isinstance(crds, list) or not crds or not all(isinstance(c, (str, dict)) for c in crds):
        bad("crds", "crds: a list of paths to CRD files or directories (relative to this file), or CRD manifests")
        crds = []
    suite.crd_paths = tuple(_resolve(path, c) for c in crds if isinstance(c, str))
    for i, c in enumerate(crds):
        if isinstance(c, dict):
            if c.get("kind") != "CustomResourceDefinition":
                bad(f"crds[{i}]", f"crds[{i}]: not a CustomResourceDefinition")
                continue
            suite.crds.append(InlineCrd(path, i, line(f"crds[{i}]"), c, doc, f"crds[{i}]"))
    objects = data.get("objects", [])
    if isinstance(objects, str):
        objects = [objects]
    if not isinstance(objects, list) or not all(isinstance(o, (str, dict)) for o in objects):
        bad("objects", "objects: a list of paths (relative to this file) or manifests: admission policies, their "
                       "bindings, params objects, Namespaces")
        objects = []
    suite.object_paths = tuple(_resolve(path, o) for o in objects if isinstance(o, str))
    for i, o in enumerate(objects):
        if isinstance(o, dict):
            if not isinstance(o.get("kind"), str) or not isinstance(o.get("apiVersion"), str):
                bad(f"objects[{i}]", f"objects[{i}]: a Kubernetes object (apiVersion and kind)")
                continue
            target = suite.crds if o["kind"] == "CustomResourceDefinition" else suite.objects
            target.append(InlineCrd(path, i, line(f"objects[{i}]"), o, doc, f"objects[{i}]"))
    try:
        suite.feature_gates = _feature_gates(data.get("featureGates"))
        suite.kubernetes_versions = _versions(data.get("kubernetesVersions"), "kubernetesVersions")
        suite.check_crds = _bool(data.get("checkCrds", True), "checkCrds")
        defaults = {
            "fieldValidation": _choice(data.get("fieldValidation", "Strict"), FIELD_VALIDATIONS, "fieldValidation"),
            "ignoreCase": _bool(data.get("ignoreCase", False), "ignoreCase"),
            "allowOtherErrors": _bool(data.get("allowOtherErrors", False), "allowOtherErrors"),
        }
    except _Bad as exc:
        bad(exc.where, exc.message)
        return suite
    cases = data.get("cases")
    if not isinstance(cases, list):
        bad("cases", "cases: a list of test cases")
        return suite
    names: dict[str, int] = {}
    for i, raw in enumerate(cases):
        where = f"cases[{i}]"
        try:
            case = _read_case(path, raw, where, line(where), defaults, lambda w, where=where: line(f"{where}.{w}"))
        except _Bad as exc:
            bad(f"{where}.{exc.where}" if exc.where else where, exc.message)
            continue
        if case.name in names:
            bad(where, f"duplicate case name {case.name!r} (first at line {names[case.name]})")
            continue
        names[case.name] = case.line
        suite.cases.append(case)
    return suite


def _feature_gates(value: Any) -> dict[str, bool]:
    """``featureGates: {MutatingAdmissionPolicy: true}``: the gates the admission chain runs with."""
    if value is None:
        return {}
    from crdtool.core.admission.chain import KNOWN_FEATURE_GATES

    if not isinstance(value, dict):
        raise _Bad("featureGates", "featureGates: a mapping of feature gate names to true or false")
    out: dict[str, bool] = {}
    for name, on in value.items():
        if name not in KNOWN_FEATURE_GATES:
            raise _Bad(f"featureGates.{name}", f"featureGates: unrecognized feature gate: {name}")
        out[str(name)] = _bool(on, f"featureGates.{name}")
    return out


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _Bad(where, f"{where}: true or false")
    return value


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise _Bad(where, f"{where}: one of {', '.join(allowed)}")
    return str(value)


def _versions(value: Any, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    from crdtool.testing.releases import ReleaseError, parse_kubernetes_versions

    items = value if isinstance(value, list) else [value]
    floats = [v for v in items if isinstance(v, float)]
    if floats:
        # YAML reads 1.30 as the number 1.3: the release must be a string
        raise _Bad(where, f"{where}: {floats[0]!r} is a number; quote Kubernetes releases: '1.30'")
    spec = ",".join(str(v) for v in items)
    try:
        return parse_kubernetes_versions(spec)
    except ReleaseError as exc:
        raise _Bad(where, f"{where}: {exc}") from None


def _object(path: str, raw: dict[str, Any], key: str, file_key: str) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    if key in raw and file_key in raw:
        raise _Bad(key, f"give {key} or {file_key}, not both")
    if key in raw:
        value = raw[key]
        if not isinstance(value, dict):
            raise _Bad(key, f"{key}: a Kubernetes object (a mapping)")
        return value, ()
    if file_key in raw:
        rel = raw[file_key]
        if not isinstance(rel, str):
            raise _Bad(file_key, f"{file_key}: a path relative to this file")
        target = _resolve(path, rel)
        docs = list(load_path(target))
        errs = [d for d in docs if isinstance(d, InputError)]
        if errs:
            raise _Bad(file_key, f"{file_key}: {errs[0]}")
        objs = [d for d in docs if isinstance(d, Document)]
        if len(objs) != 1:
            raise _Bad(file_key, f"{file_key}: {rel} holds {len(objs)} documents; one object is needed")
        return objs[0].data, tuple(objs[0].duplicate_keys)
    return None, ()


def _read_case(path: str, raw: Any, where: str, line: int, defaults: dict[str, Any],
               line_of: Any = None) -> TestCase:
    if not isinstance(raw, dict):
        raise _Bad("", "a case is a mapping with name, object and expect")
    unknown = [k for k in raw if k not in _CASE_KEYS]
    if unknown:
        raise _Bad(str(unknown[0]), f"unknown key {unknown[0]!r} in a case (expected one of {', '.join(sorted(_CASE_KEYS))})")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise _Bad("name", "name: a non-empty string")
    if "steps" in raw:
        return _read_steps(path, raw, name, line, defaults, line_of or (lambda w: line))
    if "admission" in raw:
        return _read_admission_case(path, raw, name, line, defaults)
    obj, dups = _object(path, raw, "object", "objectFile")
    if obj is None:
        raise _Bad("", f"case {name!r}: object or objectFile is required")
    old, _ = _object(path, raw, "oldObject", "oldObjectFile")
    version = raw.get("version")
    if version is not None and not isinstance(version, str):
        raise _Bad("version", "version: the CRD version's name")
    if "expect" not in raw:
        raise _Bad("", f"case {name!r}: expect is required (valid: true, or the errors expected)")
    subresource = raw.get("subresource")
    if subresource is not None:
        _choice(subresource, SUBRESOURCES, "subresource")
        if old is None:
            raise _Bad("subresource", "subresource: status is an update: give oldObject too")
    return TestCase(
        name=name,
        file=path,
        line=line,
        object=obj,
        old_object=old,
        version=version,
        kubernetes_versions=_versions(raw.get("kubernetesVersions"), "kubernetesVersions"),
        field_validation=_choice(raw.get("fieldValidation", defaults["fieldValidation"]), FIELD_VALIDATIONS,
                                 "fieldValidation"),
        subresource=subresource,
        expect=_read_expect(raw["expect"], defaults),
        duplicate_fields=dups,
        raw_expect=raw["expect"],
    )


def _read_steps(path: str, raw: dict[str, Any], name: str, line: int, defaults: dict[str, Any],
                line_of: Any) -> TestCase:
    """A multi-step case: ``steps`` (a create, then updates of what is stored), instead of object and expect."""
    clash = [k for k in ("object", "objectFile", "oldObject", "oldObjectFile", "expect", "subresource") if k in raw]
    if clash:
        raise _Bad(clash[0], f"case {name!r}: {clash[0]} goes inside each of its steps")
    steps = raw["steps"]
    if not isinstance(steps, list) or not steps:
        raise _Bad("steps", "steps: a list of {object, expect}: a create, then the updates of what it stored")
    out: list[Step] = []
    for i, item in enumerate(steps):
        where = f"steps[{i}]"
        if not isinstance(item, dict):
            raise _Bad(where, f"{where}: a mapping with object and expect")
        unknown = [k for k in item if k not in _STEP_KEYS]
        if unknown:
            raise _Bad(f"{where}.{unknown[0]}", f"unknown key {unknown[0]!r} in a step "
                                                f"(expected one of {', '.join(sorted(_STEP_KEYS))})")
        try:
            obj, dups = _object(path, item, "object", "objectFile")
            if obj is None:
                raise _Bad("", f"case {name!r}: {where}: object or objectFile is required")
            if "expect" not in item:
                raise _Bad("", f"case {name!r}: {where}: expect is required")
            subresource = item.get("subresource")
            if subresource is not None:
                _choice(subresource, SUBRESOURCES, "subresource")
                if i == 0:
                    raise _Bad("subresource", "subresource: status is an update: not in the first step (a create)")
            expect = _read_expect(item["expect"], defaults)
        except _Bad as exc:
            raise _Bad(f"{where}.{exc.where}" if exc.where else where, exc.message) from None
        out.append(Step(obj, expect, line_of(where), item["expect"], subresource, dups))
    version = raw.get("version")
    if version is not None and not isinstance(version, str):
        raise _Bad("version", "version: the CRD version's name")
    first = out[0]
    return TestCase(
        name=name, file=path, line=line, object=first.object, expect=out[-1].expect, version=version,
        kubernetes_versions=_versions(raw.get("kubernetesVersions"), "kubernetesVersions"),
        field_validation=_choice(raw.get("fieldValidation", defaults["fieldValidation"]), FIELD_VALIDATIONS,
                                 "fieldValidation"),
        steps=tuple(out),
    )


def _read_admission_case(path: str, raw: dict[str, Any], name: str, line: int, defaults: dict[str, Any]) -> TestCase:
    """An admission case: ``admission`` (the request) and an ``expect`` of the chain's answer."""
    clash = [k for k in ("object", "objectFile", "oldObject", "oldObjectFile", "subresource", "version",
                         "fieldValidation") if k in raw]
    if clash:
        raise _Bad(clash[0], f"case {name!r}: {clash[0]} goes inside admission (the request), or is not one of an "
                             "admission case")
    adm = raw["admission"]
    if not isinstance(adm, dict):
        raise _Bad("admission", "admission: the request (operation, object, oldObject, namespace, userInfo, ...)")
    unknown = [k for k in adm if k not in _ADMISSION_KEYS]
    if unknown:
        raise _Bad(f"admission.{unknown[0]}", f"unknown key {unknown[0]!r} in admission "
                                              f"(expected one of {', '.join(sorted(_ADMISSION_KEYS))})")
    try:
        obj, _ = _object(path, adm, "object", "objectFile")
        old, _ = _object(path, adm, "oldObject", "oldObjectFile")
    except _Bad as exc:
        raise _Bad(f"admission.{exc.where}", f"admission.{exc.message}") from None
    if obj is None and old is None:
        raise _Bad("admission", f"case {name!r}: admission: object or oldObject is required")
    operation = adm.get("operation", "UPDATE" if obj is not None and old is not None else
                        "DELETE" if obj is None else "CREATE")
    _choice(operation, ADMISSION_OPERATIONS, "admission.operation")
    for key in ("namespace", "name", "subResource"):
        if key in adm and not isinstance(adm[key], str):
            raise _Bad(f"admission.{key}", f"admission.{key}: a string")
    for key in ("userInfo", "options", "kind", "resource"):
        if key in adm and not isinstance(adm[key], dict):
            raise _Bad(f"admission.{key}", f"admission.{key}: a mapping")
    request = {k: v for k, v in adm.items() if k not in ("objectFile", "oldObjectFile")}
    request["operation"] = operation
    if obj is not None:
        request["object"] = obj
    if old is not None:
        request["oldObject"] = old
    if "expect" not in raw:
        raise _Bad("", f"case {name!r}: expect is required (allowed: true, or allowed: false and the message)")
    return TestCase(
        name=name, file=path, line=line, object=obj if obj is not None else (old or {}), expect=Expectation(),
        old_object=old, kubernetes_versions=_versions(raw.get("kubernetesVersions"), "kubernetesVersions"),
        raw_expect=raw["expect"], admission=request, admission_expect=_read_admission_expect(raw["expect"], defaults),
    )


def _read_admission_expect(raw: Any, defaults: dict[str, Any]) -> AdmissionExpectation:
    if not isinstance(raw, dict):
        raise _Bad("expect", "expect: a mapping (allowed: true, or allowed: false and the message)")
    unknown = [k for k in raw if k not in _ADMISSION_EXPECT_KEYS]
    if unknown:
        raise _Bad(f"expect.{unknown[0]}", f"unknown key {unknown[0]!r} in the expect of an admission case "
                                           f"(expected one of {', '.join(sorted(_ADMISSION_EXPECT_KEYS))})")
    if not isinstance(raw.get("allowed"), bool):
        raise _Bad("expect.allowed", "expect.allowed: true or false (the admission chain's decision)")
    message = raw.get("message", [])
    if not isinstance(message, list):
        message = [message]
    code = raw.get("code")
    if code is not None and (not isinstance(code, int) or isinstance(code, bool)):
        raise _Bad("expect.code", "expect.code: the HTTP status code (403, 422, ...)")
    reason = raw.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise _Bad("expect.reason", "expect.reason: the status reason (Forbidden, Invalid, ...)")
    if raw["allowed"] and (message or code not in (None, 200) or reason):
        raise _Bad("expect.allowed", "expect.allowed: true contradicts the refusal's message, code or reason")
    warnings = raw.get("warnings", [])
    if not isinstance(warnings, list):
        raise _Bad("expect.warnings", "expect.warnings: a list of substrings (or {messageRegex: ...})")
    audits = raw.get("auditAnnotations")
    if audits is not None and (not isinstance(audits, dict) or not all(isinstance(v, str) for v in audits.values())):
        raise _Bad("expect.auditAnnotations", "expect.auditAnnotations: a mapping of keys to their values (strings)")
    patched = raw.get("patchedObject")
    if patched is not None and not isinstance(patched, dict):
        raise _Bad("expect.patchedObject", "expect.patchedObject: the object as mutated (a subset of it), or null")
    return AdmissionExpectation(
        allowed=raw["allowed"], message=tuple(_text(m, f"expect.message[{k}]") for k, m in enumerate(message)),
        code=code, reason=reason, warnings=tuple(_text(w, f"expect.warnings[{k}]") for k, w in enumerate(warnings)),
        audit_annotations={str(k): v for k, v in audits.items()} if audits is not None else None,
        patched_object=patched, has_patched_object="patchedObject" in raw,
        ignore_case=_bool(raw.get("ignoreCase", defaults["ignoreCase"]), "expect.ignoreCase"),
    )


def _text(value: Any, where: str) -> ExpectedText:
    if isinstance(value, str):
        return ExpectedText(message=value)
    if isinstance(value, dict) and set(value) <= {"message", "messageRegex"} and len(value) == 1:
        if "messageRegex" in value:
            return ExpectedText(regex=_regex(value["messageRegex"], where))
        if isinstance(value["message"], str):
            return ExpectedText(message=value["message"])
    raise _Bad(where, f"{where}: a string (a substring), or {{message: ...}} or {{messageRegex: ...}}")


def _regex(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _Bad(where, f"{where}: a regular expression")
    try:
        re.compile(value)
    except re.error as exc:
        raise _Bad(where, f"{where}: not a regular expression: {exc}") from None
    return value


def _read_expect(raw: Any, defaults: dict[str, Any]) -> Expectation:
    if not isinstance(raw, dict):
        raise _Bad("expect", "expect: a mapping (valid: true, or errors: [...])")
    unknown = [k for k in raw if k not in _EXPECT_KEYS]
    if unknown:
        raise _Bad(f"expect.{unknown[0]}", f"unknown key {unknown[0]!r} in expect (expected one of {', '.join(sorted(_EXPECT_KEYS))})")
    valid = raw.get("valid")
    if valid is not None and not isinstance(valid, bool):
        raise _Bad("expect.valid", "expect.valid: true or false")
    errors: list[ExpectedError] = []
    raw_errors = raw.get("errors", [])
    if not isinstance(raw_errors, list):
        raise _Bad("expect.errors", "expect.errors: a list of {field, type, message | messageRegex}")
    for j, e in enumerate(raw_errors):
        w = f"expect.errors[{j}]"
        if isinstance(e, str):
            errors.append(ExpectedError(text=ExpectedText(message=e)))
            continue
        if not isinstance(e, dict) or not e or set(e) - _ERROR_KEYS:
            raise _Bad(w, f"{w}: a mapping of {', '.join(sorted(_ERROR_KEYS))} (or a message substring)")
        if "message" in e and "messageRegex" in e:
            raise _Bad(w, f"{w}: message or messageRegex, not both")
        etype = e.get("type")
        if etype is not None and etype not in ERROR_TYPES:
            raise _Bad(f"{w}.type", f"{w}.type: one of {', '.join(ERROR_TYPES)}")
        fld = e.get("field")
        if fld is not None and not isinstance(fld, str):
            raise _Bad(f"{w}.field", f"{w}.field: a field path such as spec.replicas")
        text = ExpectedText()
        if "messageRegex" in e:
            text = ExpectedText(regex=_regex(e["messageRegex"], f"{w}.messageRegex"))
        elif "message" in e:
            if not isinstance(e["message"], str):
                raise _Bad(f"{w}.message", f"{w}.message: a string")
            text = ExpectedText(message=e["message"])
        errors.append(ExpectedError(field=fld, type=etype, text=text))
    status = raw.get("statusMessage", [])
    if isinstance(status, str):
        status = [status]
    if not isinstance(status, list):
        raise _Bad("expect.statusMessage", "expect.statusMessage: a list of substrings of the apiserver's message")
    warnings = raw.get("warnings", [])
    if not isinstance(warnings, list):
        raise _Bad("expect.warnings", "expect.warnings: a list of substrings (or {messageRegex: ...})")
    pruned = raw.get("pruned")
    if pruned is not None and (not isinstance(pruned, list) or not all(isinstance(p, str) for p in pruned)):
        raise _Bad("expect.pruned", "expect.pruned: the list of pruned field paths")
    expectation = Expectation(
        valid=valid,
        errors=tuple(errors),
        allow_other_errors=_bool(raw.get("allowOtherErrors", defaults["allowOtherErrors"]), "expect.allowOtherErrors"),
        status_message=tuple(_text(s, f"expect.statusMessage[{k}]") for k, s in enumerate(status)),
        warnings=tuple(_text(s, f"expect.warnings[{k}]") for k, s in enumerate(warnings)),
        object=raw.get("object"),
        has_object="object" in raw,
        pruned=tuple(pruned) if pruned is not None else None,
        ignore_case=_bool(raw.get("ignoreCase", defaults["ignoreCase"]), "expect.ignoreCase"),
    )
    if valid is True and (errors or status):
        raise _Bad("expect.valid", "expect.valid: true contradicts the errors expected")
    if valid is None and not (errors or status or warnings or "object" in raw or pruned is not None):
        raise _Bad("expect", "expect: says nothing: give valid: true, valid: false, or the errors expected")
    return expectation


# --------------------------------------------------------------------------------------------------
# The annotated-manifest form

_HEADER = re.compile(r"^#\s*([a-z-]+)\s*:\s*(.*?)\s*$")


def _read_manifest(path: str, text: str, docs: list[Document]) -> Suite:
    suite = Suite(path, (), form="manifest")
    crds: list[str] = []
    expects: list[tuple[int, str]] = []
    old_path = version = None
    versions: tuple[str, ...] | None = None
    field_validation = "Strict"
    for number, raw_line in enumerate(text.splitlines(), start=1):
        stripped = raw_line.strip()
        if not stripped or stripped == "---":
            continue
        if not stripped.startswith("#"):
            break
        m = _HEADER.match(stripped)
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        try:
            if key == "crd":
                crds.append(_resolve(path, value))
            elif key == "expect":
                expects.append((number, value))
            elif key == "old":
                old_path = value
            elif key == "version":
                version = value
            elif key == "kubernetes-versions":
                versions = _versions(value, "kubernetes-versions")
            elif key == "field-validation":
                field_validation = _choice(value, FIELD_VALIDATIONS, "field-validation")
        except _Bad as exc:
            suite.errors.append(SuiteError(path, number, exc.message))
    suite.crd_paths = tuple(crds)
    if not expects:
        suite.errors.append(SuiteError(path, 1, "no '# expect:' line (valid, invalid, or TYPE FIELD \"message\")"))
        return suite
    try:
        expectation = _manifest_expectation(expects)
    except _Bad as exc:
        suite.errors.append(SuiteError(path, int(exc.where or 1), exc.message))
        return suite
    old: dict[str, Any] | None = None
    if old_path is not None:
        try:
            old, _ = _object(path, {"oldObjectFile": old_path}, "oldObject", "oldObjectFile")
        except _Bad as exc:
            suite.errors.append(SuiteError(path, 1, exc.message))
            return suite
    for doc in docs:
        name = os.path.basename(path) if len(docs) == 1 else f"{os.path.basename(path)}#{doc.index}"
        suite.cases.append(TestCase(
            name=name, file=path, line=doc.line, object=doc.data, expect=expectation, old_object=old, version=version,
            kubernetes_versions=versions, field_validation=field_validation, duplicate_fields=tuple(doc.duplicate_keys),
        ))
    if not docs:
        suite.errors.append(SuiteError(path, 1, "no object in the file"))
    return suite


_EXPECT_LINE = re.compile(r"""^(?:(?P<type>[A-Za-z]+)(?:\s+|$))?(?:(?P<field>[^\s"']+)\s*)?(?:"(?P<dq>.*)"|'(?P<sq>.*)')?$""")


def _manifest_expectation(lines: list[tuple[int, str]]) -> Expectation:
    """``# expect:`` lines: ``valid``, ``invalid``, or ``[TYPE] [FIELD] ["message substring"]``."""
    errors: list[ExpectedError] = []
    valid: bool | None = None
    for number, value in lines:
        if value in ("valid", "invalid"):
            valid = value == "valid"
            continue
        m = _EXPECT_LINE.match(value)
        etype = m.group("type") if m else None
        fld = m.group("field") if m else None
        if m and etype is not None and etype not in ERROR_TYPES:
            if fld is not None:
                m = None  # two words before the message and the first is no error type
            fld, etype = etype, None  # one word: the field
        if m is None or not value:
            raise _Bad(str(number), f"# expect: {value!r} is not valid, invalid, or TYPE FIELD \"message\"")
        message = m.group("dq") if m.group("dq") is not None else m.group("sq")
        errors.append(ExpectedError(field=fld, type=etype, text=ExpectedText(message=message)))
    if valid is True and errors:
        raise _Bad(str(lines[0][0]), "# expect: valid contradicts the errors expected")
    return Expectation(valid=valid if valid is not None else (False if errors else None), errors=tuple(errors))
