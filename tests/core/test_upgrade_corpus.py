"""upgrade_crd over the real-world corpus, round trips, and a round-trip property.

* Every v1beta1 CRD of ``shared/corpus/crds/v1beta1`` upgrades to a v1 manifest that
  ``check_crd_manifest`` accepts, or the "manual" notes name exactly the fields it rejects.
  :data:`MANUAL` lists the CRDs that stay manual even with ``fix=True`` and the upstream
  reason; :data:`REPAIRED` those that only ``fix=True`` makes valid.
* v1 -> v1beta1 -> v1 returns the same object; v1beta1 -> v1 -> v1beta1 returns the
  defaulted original modulo the normalisations of :func:`v1beta1_round_trip_expectation`
  (documented in ``crdtool.core.crd.upgrade``).
"""

from __future__ import annotations

import copy
from typing import Any

from deepdiff import DeepDiff
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.crd import types as T
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.defaults import default_crd
from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.crd.upgrade import MANUAL as MANUAL_KIND
from crdtool.core.crd.upgrade import upgrade_crd

_APPROVAL = ('metadata.annotations[api-approved.kubernetes.io]: protected group without the "api-approved.kubernetes.io" '
             "annotation (KEP 1111); a policy decision, not a conversion")

#: CRDs that need the author even with fix=True: number of manual notes, and why (upstream's reason).
MANUAL: dict[str, tuple[int, str]] = {
    "apiextensions-apiserver__v0.36.3__testdata-HEAD__v1beta1.CustomResourceDefinition.yaml#0": (
        41, ("upstream's fuzzed round-trip fixture: every value is a placeholder (nameValue, typeValue, ...) that "
             "names, versions, the schema type, columns, selectable fields, scale paths and the conversion strategy "
             "reject; the schema uses $ref, id, definitions, patternProperties, dependencies, additionalItems, items "
             "as a list and uniqueItems, none of which has a structural equivalent")),
    "argo-workflows__v2.12.0__full__argoproj.io_workflows.yaml#0": (
        12, ("ports are a list map keyed by [containerPort, protocol]: protocol must have a default or be required "
             "(\"this property is in x-kubernetes-list-map-keys, so it must have a default or be a required "
             "property\"); which one is the author's choice")),
    # 5 label errors at 1.36; at 1.37 (the default) the two identical ones are reported once
    # (ValidateObjectMetaDeclaratively, apimachinery v0.37.0-beta.0: issue 28)
    "cert-manager__v1.0.0__crd-certificates.v1beta1.yaml#0": (
        4, "Helm template expressions in metadata.labels are not label values (an unrendered chart template)"),
    "keda__v1.5.0__keda.k8s.io_scaledobjects_crd.yaml#0": (1, _APPROVAL),
    "kubebuilder__v2.3.1__patches__webhook_in_captains.yaml#0": (
        8, "a kustomize patch, not a whole CRD: group, names and versions are missing"),
    "sample-controller__kubernetes-1.18.0__crd-status-subresource.yaml#0": (1, _APPROVAL),
    "sample-controller__kubernetes-1.18.0__crd-validation.yaml#0": (1, _APPROVAL),
    "sample-controller__kubernetes-1.18.0__crd.yaml#0": (1, _APPROVAL),
    "strimzi__0.22.0__040-Crd-kafka.yaml#0": (
        443, ("spec.kafka.listeners is an array or an object (oneOf with a type in each branch): no structural "
              "schema expresses that union; all 443 errors are that node's missing type and the types and "
              "descriptions inside its oneOf")),
}

#: CRDs that only fix=True makes valid, and what it repairs.
REPAIRED: dict[str, str] = {
    **{f"calico__v3.14.0__upgrade-v2.5__crds.yaml#{i}": "unknown top-level field description" for i in range(4)},
    "kubebuilder__v2.3.1__multiversion-tutorial__cronjobs.yaml#0": "int-or-string ports written as anyOf [string, integer]",
    "prometheus-operator__v0.25.0__servicemonitor.crd.yaml#0": "objects and arrays without type, int-or-string ports",
    "prometheus-operator__v0.34.0__prometheus.crd.yaml#0": "objects without type, schemas without type (any value), int-or-string",
    **{f"rook__v1.5.0__pre-k8s-1.16__crds.yaml#{i}": "objects and arrays without type, empty schemas (any value)"
       for i in (1, 2, 3, 4, 5, 6, 11)},
}

MANUAL_NOTES_WITHOUT_FIX = 782  # 783 before 1.37's reporting of an identical error once
MANUAL_NOTES_WITH_FIX = sum(count for count, _ in MANUAL.values())


def assert_same(expected: Any, actual: Any, name: str = "") -> None:
    """``DeepDiff(expected, actual, ignore_order=False) == {}``, fast for the (usual) equal case.

    ``json_equal`` (same keys, lengths, JSON types and values) implies an empty DeepDiff, so
    DeepDiff, which takes seconds on the larger CRDs, only runs to explain a difference.
    """
    if not T.json_equal(expected, actual):
        assert DeepDiff(expected, actual, ignore_order=False) == {}, name


_UPGRADED: dict[tuple[str, str, bool], tuple[dict[str, Any], list[Any]]] = {}


def upgraded(name: str, doc: dict[str, Any], to: str, fix: bool = False) -> tuple[dict[str, Any], list[Any]]:
    """``upgrade_crd`` of a corpus document, computed once per test session."""
    key = (name, to, fix)
    if key not in _UPGRADED:
        before = copy.deepcopy(doc)
        _UPGRADED[key] = upgrade_crd(doc, to, fix=fix)
        assert doc == before, name  # pure
    return _UPGRADED[key]


def _check_notes_name_every_error(out: dict[str, Any], notes: list[Any]) -> int:
    manual = [(n.path, n.reason) for n in notes if n.kind == MANUAL_KIND]
    assert manual == [(f.error.field, f.error.body()) for f in check_crd_manifest(out).findings]
    return len(manual)


# --- round trips ---------------------------------------------------------------------------------


def v1_round_trip_expectation(doc: dict[str, Any]) -> dict[str, Any]:
    """What v1 -> v1beta1 -> v1 gives back.

    The same object, except: ``preserveUnknownFields: false`` is v1's zero value (a plain bool with
    omitempty) and is not written back; a manifest v1 rejects gets the v1 made-valid steps —
    ``preserveUnknownFields: true`` becomes ``x-kubernetes-preserve-unknown-fields: true`` at each schema
    root, a version without a schema gets ``{type: object, x-kubernetes-preserve-unknown-fields: true}``.
    """
    out = copy.deepcopy(doc)
    spec = out.get("spec") or {}
    preserve = spec.pop("preserveUnknownFields", None)
    # Per-version values that are all Semantic.DeepEqual (an empty description equals none) are
    # hoisted to the top level on the way to v1beta1 and come back as copies of the first one.
    versions = [v for v in spec.get("versions") or [] if isinstance(v, dict)]
    for key, go_type in (("schema", "CustomResourceValidation"), ("subresources", "CustomResourceSubresources")):
        firsts = [v.get(key) for v in versions]
        struct = T.API_V1.struct(go_type)
        if versions and all(f is not None and T.go_equal(f, firsts[0], struct) for f in firsts):
            for version in versions:
                version[key] = copy.deepcopy(firsts[0])
    for version in spec.get("versions") or []:
        schema = version.get("schema")
        if not isinstance(schema, dict) or not isinstance(schema.get("openAPIV3Schema"), dict):
            version.setdefault("schema", {})
            version["schema"]["openAPIV3Schema"] = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
        elif preserve:
            version["schema"]["openAPIV3Schema"]["x-kubernetes-preserve-unknown-fields"] = True
    return out


_VERSION = T.API_V1BETA1.struct("CustomResourceDefinitionVersion")
_PER_VERSION = {"schema": "validation", "subresources": "subresources",
                "additionalPrinterColumns": "additionalPrinterColumns", "selectableFields": "selectableFields"}


def v1beta1_round_trip_expectation(doc: dict[str, Any]) -> dict[str, Any]:
    """What v1beta1 -> v1 -> v1beta1 gives back, in defaulted (v1beta1 SetDefaults) form.

    The defaulted original, with the seed KEP's "top level fields to per-version fields" rule
    both ways and the made-valid steps (N0-N4 of ``crdtool.core.crd.upgrade``):

    * N0 top-level validation/subresources/columns/selectable fields go into every version
      (and replace per-version ones);
    * N1 ``preserveUnknownFields: true`` becomes false, with
      ``x-kubernetes-preserve-unknown-fields: true`` at the root of every schema;
    * N2 a version without any schema gets ``{type: object, x-kubernetes-preserve-unknown-fields: true}``;
    * N3 per-version fields identical in every version (Semantic.DeepEqual) move to the top level
      (selectable fields only together with the schema);
    * N4 ``spec.version`` becomes the first version's name (v1 has no spec.version; v1beta1 requires
      them to match).
    """
    out = copy.deepcopy(default_crd(decode_crd(doc)[0]))
    spec = out["spec"]
    versions = [v for v in spec.get("versions") or [] if isinstance(v, dict)]
    for version_key, top_key in _PER_VERSION.items():
        if spec.get(top_key) is not None:
            for version in versions:
                version[version_key] = copy.deepcopy(spec[top_key])
        spec.pop(top_key, None)
    for version in versions:
        root = (version.get("schema") or {}).get("openAPIV3Schema")
        if not isinstance(root, dict):
            version["schema"] = {**(version.get("schema") or {}),
                                 "openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}
        elif spec.get("preserveUnknownFields") is True:
            root["x-kubernetes-preserve-unknown-fields"] = True
    if spec.get("preserveUnknownFields") is True:
        spec["preserveUnknownFields"] = False
    if versions:
        same = {k: all(T.go_equal(v.get(k), versions[0].get(k), _VERSION.fields[k].type) for v in versions)
                for k in _PER_VERSION}
        same["selectableFields"] = same["selectableFields"] and same["schema"]
        for key, identical in same.items():
            if not identical:
                continue
            if versions[0].get(key) is not None:
                spec[_PER_VERSION[key]] = versions[0][key]
            for version in versions:
                version.pop(key, None)
        spec["version"] = versions[0].get("name")
    return out


def _defaulted(doc: dict[str, Any]) -> dict[str, Any]:
    return default_crd(decode_crd(doc)[0])


# --- property: both round trips on generated CRDs ------------------------------------------------

leaf_schemas = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["string", "integer", "boolean"]),
    "description": st.sampled_from(["", "d"]),
    "maxLength": st.just(3),
    "enum": st.sampled_from([["a"], [1, 2]]),
    "default": st.sampled_from(["a", 1, None]),
})
schemas = st.recursive(
    leaf_schemas,
    lambda kids: st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["object", "array"]),
        "properties": st.dictionaries(st.sampled_from(["a", "b"]), kids, max_size=2),
        "items": kids,
        "anyOf": st.lists(kids, min_size=1, max_size=2),
        "x-kubernetes-preserve-unknown-fields": st.just(True),
    }),
    max_leaves=5,
)
validations = st.sampled_from([None, {"openAPIV3Schema": {"type": "object"}}]) | schemas.map(
    lambda s: {"openAPIV3Schema": s})
subresources = st.sampled_from([None, {"status": {}}])


def _columns(key: str) -> st.SearchStrategy[Any]:
    return st.sampled_from([None, [{"name": "A", "type": "string", key: ".a"}]])


def _versions(column_key: str, schema: bool) -> st.SearchStrategy[list[dict[str, Any]]]:
    optional: dict[str, Any] = {"deprecated": st.booleans(), "subresources": subresources,
                                "additionalPrinterColumns": _columns(column_key)}
    if schema:
        optional["schema"] = validations
    version = st.fixed_dictionaries({"name": st.sampled_from(["v1", "v2", "v3"]), "served": st.booleans(),
                                     "storage": st.booleans()}, optional=optional)
    return st.lists(version, min_size=1, max_size=3, unique_by=lambda v: v["name"])


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


names = st.fixed_dictionaries({"plural": st.just("foos"), "kind": st.just("Foo")},
                              optional={"singular": st.just("foo"), "shortNames": st.just(["f"])})
webhook_v1 = st.fixed_dictionaries({"strategy": st.just("Webhook"), "webhook": st.fixed_dictionaries(
    {"clientConfig": st.just({"url": "https://c.example.com/x"}), "conversionReviewVersions": st.just(["v1"])})})
v1_crds = st.fixed_dictionaries({
    "apiVersion": st.just("apiextensions.k8s.io/v1"),
    "kind": st.just("CustomResourceDefinition"),
    "metadata": st.just({"name": "foos.example.com"}),
    "spec": st.fixed_dictionaries(
        {"group": st.just("example.com"), "names": names, "scope": st.sampled_from(["Namespaced", "Cluster"]),
         "versions": _versions("jsonPath", schema=True).map(lambda vs: [_drop_none(v) for v in vs])},
        optional={"conversion": st.just({"strategy": "None"}) | webhook_v1, "preserveUnknownFields": st.booleans()}),
})
v1beta1_crds = st.fixed_dictionaries({
    "apiVersion": st.just("apiextensions.k8s.io/v1beta1"),
    "kind": st.just("CustomResourceDefinition"),
    "metadata": st.just({"name": "foos.example.com"}),
    "spec": st.one_of(
        # top-level fields (the v1beta1 way) ...
        st.fixed_dictionaries(
            {"group": st.just("example.com"), "names": names},
            optional={"version": st.just("v1"), "versions": _versions("JSONPath", schema=False),
                      "validation": validations, "subresources": subresources,
                      "additionalPrinterColumns": _columns("JSONPath"), "scope": st.just("Cluster"),
                      "preserveUnknownFields": st.booleans()}),
        # ... or per-version ones
        st.fixed_dictionaries(
            {"group": st.just("example.com"), "names": names, "versions": _versions("JSONPath", schema=True)},
            optional={"preserveUnknownFields": st.booleans(), "conversion": st.fixed_dictionaries(
                {"strategy": st.just("Webhook"), "webhookClientConfig": st.just({"url": "https://c.example.com/x"})})}),
    ).map(lambda spec: {**_drop_none(spec), "versions": [_drop_none(v) for v in spec.get("versions") or []]}
          if "versions" in spec else _drop_none(spec)),
})


@settings(max_examples=120, deadline=None)
@given(v1_crds)
def test_v1_round_trip_property(doc: dict[str, Any]) -> None:
    before = copy.deepcopy(doc)
    beta, _ = upgrade_crd(doc, "v1beta1")
    back, _ = upgrade_crd(beta, "v1")
    assert doc == before
    assert_same(v1_round_trip_expectation(doc), back)


@settings(max_examples=120, deadline=None)
@given(v1beta1_crds)
def test_v1beta1_round_trip_property(doc: dict[str, Any]) -> None:
    before = copy.deepcopy(doc)
    v1, _ = upgrade_crd(doc, "v1")
    back, _ = upgrade_crd(v1, "v1beta1")
    assert doc == before
    assert_same(v1beta1_round_trip_expectation(doc), _defaulted(back))
