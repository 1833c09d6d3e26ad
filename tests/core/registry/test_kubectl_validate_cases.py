"""kubectl-validate's testcases of built-in kinds (``tests/cases/builtin/kubectl-validate``, copied from
kubernetes-sigs/kubectl-validate ``testcases/manifests`` at a97ccfac), judged by the apiserver's create path.

Each document's leading comment is kubectl-validate's expected ``metav1.Status``. Where kubectl-validate agrees
with the apiserver the status must be the same (up to kubectl-validate's ``Kind.core`` for the core group:
``schema.GroupKind{Group: ""}.String()`` is just the kind, k8s.io/apimachinery v0.36.3
``pkg/runtime/schema/group_version.go``). Where it departs, :data:`APISERVER` holds the apiserver's answer and
the upstream code that decides it. Cases that need native validation (issue 30) are listed in
:data:`NEEDS_NATIVE_VALIDATION` and only checked to be judged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from crdtool.core.registry import create as C
from crdtool.yaml.loader import Document, load_documents

CASES = Path(__file__).resolve().parents[2] / "cases" / "builtin" / "kubectl-validate"
RELEASE = "1.35"  # kubectl-validate a97ccfac embeds the 1.35 schemas

#: (file, document number) → the apiserver's (reason, code, message), where kubectl-validate differs.
APISERVER: dict[tuple[str, int], tuple[str, int, str]] = {
    # handlers/create.go transformDecodeError over sigs.k8s.io/json's UnmarshalTypeError: a 400, not a 422
    ("error_array_instead_of_map.yaml", 0): ("BadRequest", 400,
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct '
        "field ConfigMap.data of type map[string]string"),
    # strict decoding: the unknown field is a BadRequest, the subtree under it is never looked at
    ("error_indentation.yaml", 0): ("BadRequest", 400,
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "containers"'),
    ("error_misspelled_key.yaml", 0): ("BadRequest", 400,
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.contAIN3rz"'),
    ("error_multiple_resources_all_invalid.yaml", 0): ("BadRequest", 400,
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.contAIN3rz"'),
    ("error_multiple_resources_one_invalid.yaml", 0): ("BadRequest", 400,
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.contAIN3rz"'),
    # encoding/json: the error names the field path from the root ("metadata.finalizers"), and it is a 400
    ("error_map_instead_of_array.yaml", 0): ("BadRequest", 400,
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct '
        "field ObjectMeta.metadata.finalizers of type []string"),
    # resource.Quantity.UnmarshalJSON: ParseQuantity("true") fails with ErrFormatWrong
    ("error_quantity.yaml", 0): ("BadRequest", 400,
        'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    # a type error first: `protocol: 22` into ContainerPort.Protocol, a v1.Protocol (k8s.io/api core/v1 types.go)
    ("error_invalid_protocol_type.yaml", 0): ("BadRequest", 400,
        'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field '
        "ContainerPort.spec.containers.ports.protocol of type v1.Protocol"),
    # kubectl's RESTMapper: kinds are matched exactly (meta.NoKindMatchError)
    ("error_invalid_kind.yaml", 0): ("NotFound", 404, 'no matches for kind "configmap" in version "v1"'),
}

#: Decided by pkg/apis/core/validation (issue 30): enum values, required image, duplicate ports (a warning).
NEEDS_NATIVE_VALIDATION = {
    ("error_enum_invalid.yaml", 0), ("error_missing_image.yaml", 0), ("error_x_list_map_duplicate_key.yaml", 0),
}


def _documents() -> list[tuple[str, int, Document]]:
    out = []
    for path in sorted(CASES.glob("*.yaml")):
        docs = [d for d in load_documents(path.read_bytes(), path.name) if isinstance(d, Document)]
        out.extend((path.name, i, d) for i, d in enumerate(docs))
    return out


def _expected(doc: Document, raw: str) -> dict[str, Any] | None:
    """kubectl-validate's expected status: the JSON in the comment lines just above the document."""
    lines = raw.splitlines()[: max(doc.line - 1, 0)]
    block: list[str] = []
    for line in reversed(lines):
        if line.startswith("---"):
            break
        block.append(line)
    text = "\n".join(line[2:] if line.startswith("# ") else line[1:] for line in reversed(block) if line.startswith("#"))
    m = re.search(r"^\{.*?^\}", text, re.S | re.M)
    return json.loads(m.group(0)) if m else None


DOCS = _documents()


@pytest.mark.parametrize(("file", "number", "doc"), DOCS, ids=[f"{f}#{n}" for f, n, _ in DOCS])
def test_case(file: str, number: int, doc: Document) -> None:
    verdict = C.create_builtin(doc.data, RELEASE, duplicate_fields=doc.duplicate_keys)
    if doc.data.get("apiVersion", "").startswith("batch.x-k8s.io"):  # a JobSet: a custom resource
        assert verdict.outcome == C.NOT_A_KIND
        return
    assert verdict.outcome != C.NOT_A_KIND
    if (file, number) in NEEDS_NATIVE_VALIDATION:
        return
    if (file, number) in APISERVER:
        reason, code, message = APISERVER[(file, number)]
        assert (verdict.status.get("reason"), verdict.status["code"], verdict.status.get("message")) == (reason, code, message)
        return
    expected = _expected(doc, (CASES / file).read_text(encoding="utf-8"))
    assert expected is not None
    assert verdict.status["status"] == expected["status"]
    if expected["status"] == "Success":
        return
    assert verdict.status["reason"] == expected["reason"] and verdict.status["code"] == expected["code"]
    assert verdict.status["message"] == expected["message"].replace(".core ", " ", 1)
    got = [{k: c[k] for k in ("reason", "message", "field")} for c in verdict.status["details"]["causes"]]
    assert got == [{k: c[k] for k in ("reason", "message", "field")} for c in expected["details"]["causes"]]


def test_every_builtin_document_is_judged() -> None:
    judged = [f for f, _, d in DOCS if C.create_builtin(d.data, RELEASE).outcome != C.NOT_A_KIND]
    assert len(judged) == len(DOCS) - 1  # all but the JobSet
