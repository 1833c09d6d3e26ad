"""Upstream update tests, written as ``crdtool test`` suites (``suites/upstream/*.crdtest.yaml``).

Run ``python tests/testing/upstream_suites.py`` to write the files again; ``test_upstream_suites.py`` checks the
committed files are what this script makes and that every case passes. Two sources, both already transcribed
in this repository from apiextensions-apiserver v0.36.3 (their READMEs say how):

* ``tests/core/crd_update_upstream/ratcheting_functionality.yaml`` (``test/integration/ratcheting_test.go``
  ``TestRatchetingFunctionality``): each case's apply operations become cases, one suite per schema phase (the
  CRD changes between phases, as ``update_schema``/``patch_schema`` change it upstream). The first apply is a
  CREATE; each later one an UPDATE whose ``oldObject`` is the object last stored (the request of the last apply
  that succeeded, as the apiserver stored it: pruned and defaulted under the schema of its time). The
  expectation is upstream's ``expect_error`` (any error, or none), with field validation ``Warn`` as the test's
  client sends;
* ``tests/core/cel_upstream/eval_k8s_validation.yaml`` (``pkg/apiserver/schema/cel/validation_test.go``): the
  cases with an old object of ``TestRatcheting``, ``TestOptionalOldSelf``, ``TestOptionalOldSelfCheckForNull``
  and the transition rules of ``TestValidationExpressions``. Upstream validates a bare value at ``root``; here
  the schema is a CRD's ``spec.v`` (so ``root`` reads ``spec.v`` in the messages) and the value is updated
  through the whole update path. Left out, and said in ``SKIPPED``: cases about cost budgets (a unit test's
  budget), compile errors (the CRD would be refused), and type-meta fields of a resource root.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "suites" / "upstream"
RATCHETING = ROOT / "tests" / "core" / "crd_update_upstream" / "ratcheting_functionality.yaml"
VALIDATION = ROOT / "tests" / "core" / "cel_upstream" / "eval_k8s_validation.yaml"

INITIAL_SCHEMA = {  # runTests' initial CRD (ratcheting_test.go:380)
    "type": "object",
    "properties": {
        "content": {"type": "object", "additionalProperties": {"type": "string"}},
        "num": {"type": "object", "additionalProperties": {"type": "integer"}},
        "status": {"type": "object"},
    },
}

#: validation_test.go cases left out, with the reason.
SKIPPED = {
    "cost budget errors are not ratcheted": "a unit test's runtime cost budget (the apiserver's is fixed)",
    "compile errors are not ratcheted": "a rule that does not compile: the apiserver refuses such a CRD",
    "typemeta fields are not ratcheted": "type-meta fields of a resource root (apiVersion/kind of the CR itself)",
    "skipped transition rule for old with non-nil interface but nil value": "a Go nil inside an interface: no JSON",
}
#: validation_test.go sets ``OptionalOldSelf`` on every rule of these tests (lines 4596, 4751).
OPTIONAL_OLD_SELF = ("TestOptionalOldSelf", "TestOptionalOldSelfCheckForNull")


def _crd(name: str, group: str, kind: str, version: str, schema: dict[str, Any], status: bool) -> dict[str, Any]:
    ver: dict[str, Any] = {"name": version, "served": True, "storage": True, "schema": {"openAPIV3Schema": schema}}
    if status:
        ver["subresources"] = {"status": {}}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": name},
        "spec": {"group": group, "scope": "Namespaced",
                 "names": {"plural": name.split(".")[0], "kind": kind, "listKind": kind + "List"},
                 "versions": [ver]},
    }


def _merge_patch(target: Any, patch: Any) -> Any:
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = _merge_patch(out.get(k), v)
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def ratcheting_suites() -> dict[str, dict[str, Any]]:
    """Suites from ``TestRatchetingFunctionality``: file name -> suite."""
    from crdtool import apply_create, apply_update

    data = yaml.safe_load(RATCHETING.read_text())
    out: dict[str, dict[str, Any]] = {}
    for case in data["cases"]:
        if case["disabled"] or not case["operations"]:
            continue
        schema = INITIAL_SCHEMA
        stored: dict[str, Any] | None = None
        phase: dict[str, Any] | None = None
        phases: list[dict[str, Any]] = []
        step = 0
        for op in case["operations"]:
            if op["op"] in ("update_schema", "patch_schema"):
                schema = op["schema"] if op["op"] == "update_schema" else _merge_patch(schema, op["merge_patch"])
                phase = None
                continue
            crd = _crd("mycrds.mygroup.example.com", "mygroup.example.com", "MyCoolCRD", "v1beta1", schema, True)
            if phase is None:
                phase = {"crds": [crd], "fieldValidation": "Warn", "cases": []}
                phases.append(phase)
            body = yaml.safe_load(op["patch_yaml"]) if "patch_yaml" in op else op["patch"]
            obj = {"apiVersion": "mygroup.example.com/v1beta1", "kind": "MyCoolCRD",
                   "metadata": {"name": op["name"], "namespace": "default"}, **copy.deepcopy(body)}
            step += 1
            entry: dict[str, Any] = {"name": f"{step:02d} {op['description']}"}
            if stored is not None:
                entry["oldObject"] = stored
            entry["object"] = obj
            entry["expect"] = {"valid": not op.get("expect_error")}
            phase["cases"].append(entry)
            # what the apiserver stores when the apply succeeds (upstream asserts it does when no error is expected)
            if not op.get("expect_error"):
                if stored is None:
                    stored = apply_create(obj, crd, field_validation="Warn").stored
                else:
                    new = {**obj, "metadata": {**obj["metadata"], "resourceVersion": "1"}}
                    stored = apply_update(new, stored, crd, field_validation="Warn").stored
                    stored["metadata"].pop("resourceVersion", None)
                stored = {k: v for k, v in stored.items()}
        for i, suite in enumerate(phases, start=1):
            suite = {"description": f"apiextensions-apiserver v0.36.3 test/integration/ratcheting_test.go "
                                    f"TestRatchetingFunctionality {case['name']!r} (line {case['source']['line']}), "
                                    f"schema phase {i} of {len(phases)}", **suite}
            out[f"ratcheting-{_slug(case['name'])}-{i}.crdtest.yaml"] = suite
    return out


def _plain(value: Any) -> Any:
    """The transcription's Go-typed scalars (``{$go: int32, v: '5'}``) as the JSON an object holds."""
    if isinstance(value, dict):
        if "$go" in value and set(value) == {"$go", "v"}:
            kind, raw = value["$go"], value["v"]
            if kind.startswith(("int", "uint")):
                return int(raw)
            if kind.startswith("float"):
                return float(raw)
            return raw
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _at_spec(message: str) -> str:
    return re.sub(r"^root", "spec.v", message)


def validation_suites() -> dict[str, dict[str, Any]]:
    """Suites from validation_test.go's cases with an old object: file name -> suite."""
    data = yaml.safe_load(VALIDATION.read_text())
    out: dict[str, dict[str, Any]] = {}
    for test in ("TestRatcheting", "TestOptionalOldSelf", "TestOptionalOldSelfCheckForNull", "TestValidationExpressions"):
        cases = []
        crds = []
        for c in data[test]:
            old = c.get("oldObj")
            new = c.get("newObj", c.get("obj"))
            if old is None or c["name"] in SKIPPED:
                continue
            if test == "TestValidationExpressions" and (new is None or not c.get("valid")):
                continue
            schema = _plain(c["schema"])
            rules_valid = c.get("valid") or []
            if test == "TestValidationExpressions":
                schema = {**schema, "x-kubernetes-validations": [{"rule": r} for r in rules_valid]}
            if test in OPTIONAL_OLD_SELF:
                schema = {**schema, "x-kubernetes-validations": [{**r, "optionalOldSelf": True}
                                                                  for r in schema.get("x-kubernetes-validations", [])]}
            i = len(crds)
            group = f"c{i}.upstream.example.com"
            crds.append(_crd(f"things.{group}", group, "Thing", "v1",
                             {"type": "object", "properties": {"spec": {"type": "object", "properties": {"v": schema}}}},
                             False))
            meta = {"name": "thing", "namespace": "default"}
            entry: dict[str, Any] = {
                "name": c["name"],
                "description": f"{c['source']['file'].replace('apiext/', 'apiextensions-apiserver v0.36.3 ')}:{c['source']['line']} "
                               f"{test}",
                "oldObject": {"apiVersion": f"{group}/v1", "kind": "Thing", "metadata": meta, "spec": {"v": _plain(old)}},
                "object": {"apiVersion": f"{group}/v1", "kind": "Thing", "metadata": meta,
                           "spec": {} if new is None else {"v": _plain(new)}},
            }
            errors = c.get("errors") or []
            expect: dict[str, Any] = {}
            if errors:
                expect["errors"] = [{"message": _at_spec(e)} for e in errors]
            else:
                expect["valid"] = True
            if c.get("warnings"):
                expect["warnings"] = [_at_spec(w) for w in c["warnings"]]
            entry["expect"] = expect
            cases.append(entry)
        if cases:
            out[f"validation-{_slug(test)}.crdtest.yaml"] = {
                "description": f"apiextensions-apiserver v0.36.3 pkg/apiserver/schema/cel/validation_test.go {test}: "
                               "the cases with an old object, each value at spec.v of its own CRD",
                # upstream validates the value alone: nothing is pruned there, so unknown fields are no error
                "fieldValidation": "Warn",
                # upstream hands each schema to the validator directly, never creates it as a CRD: some would be
                # refused on create (a list-map key without a default, an empty x-kubernetes-list-type)
                "checkCrds": False,
                "crds": crds, "cases": cases,
            }
    return out


def render(suite: dict[str, Any]) -> str:
    header = "# Generated by tests/testing/upstream_suites.py from upstream's tests (see its docstring); do not edit.\n"
    return header + yaml.safe_dump(suite, sort_keys=False, width=120, allow_unicode=True)


def all_suites() -> dict[str, str]:
    return {name: render(s) for name, s in {**ratcheting_suites(), **validation_suites()}.items()}


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.crdtest.yaml"):
        old.unlink()
    for name, text in all_suites().items():
        (OUT / name).write_text(text)
    print(f"wrote {len(list(OUT.glob('*.crdtest.yaml')))} suites to {OUT}", file=sys.stderr)
