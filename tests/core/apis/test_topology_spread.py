"""``TestValidateTopologySpreadConstraints`` of kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36), compared as upstream does (type and field). A create has no old pod:
1.36 runs the rows with ``AllowMatchLabelKeysInPodTopologySpreadSelectorMerge`` true and the old-pod flags false
(``ValidateMatchLabelKeysAndMismatchLabelKeys``); 1.33 (merge gate not there yet) the rows with it false
(``ValidateMatchLabelKeysInTopologySpread``)."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_topology_spread_constraints
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release

IN, RQ, NS, FB, DU = "FieldValueInvalid", "FieldValueRequired", "FieldValueNotSupported", "FieldValueForbidden", "FieldValueDuplicate"
F = "field[0]"
ZONE = {"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}
NOT_IN = [{"key": "foo", "operator": "NotIn", "values": ["value1"]}, {"key": "foo", "operator": "NotIn", "values": ["value2", "value3"]}]

CASES: list[tuple[str, list[dict[str, Any]], list[tuple[str, str]]]] = [
    ("all required fields ok", [{**ZONE, "minDomains": 3}], []),
    ("missing MaxSkew", [{"topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}], [(IN, f"{F}.maxSkew")]),
    ("negative MaxSkew", [{**ZONE, "maxSkew": -1}], [(IN, f"{F}.maxSkew")]),
    ("can use MinDomains with ScheduleAnyway, when MinDomains = nil", [{**ZONE, "whenUnsatisfiable": "ScheduleAnyway"}], []),
    ("negative minDomains is invalid", [{**ZONE, "minDomains": -1}], [(IN, f"{F}.minDomains")]),
    ("cannot use non-nil MinDomains with ScheduleAnyway", [{**ZONE, "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 10}], [(IN, f"{F}.minDomains")]),
    ("use negative MinDomains with ScheduleAnyway(invalid)", [{**ZONE, "whenUnsatisfiable": "ScheduleAnyway", "minDomains": -1}], [(IN, f"{F}.minDomains")] * 2),
    ("missing TopologyKey", [{"maxSkew": 1, "whenUnsatisfiable": "DoNotSchedule"}], [(RQ, f"{F}.topologyKey")]),
    ("missing scheduling mode", [{"maxSkew": 1, "topologyKey": "k8s.io/zone"}], [(NS, f"{F}.whenUnsatisfiable")]),
    ("unsupported scheduling mode", [{**ZONE, "whenUnsatisfiable": "N/A"}], [(NS, f"{F}.whenUnsatisfiable")]),
    ("multiple constraints ok with all required fields", [ZONE, {"maxSkew": 2, "topologyKey": "k8s.io/node", "whenUnsatisfiable": "ScheduleAnyway"}], []),
    ("multiple constraints missing TopologyKey on partial ones", [{"maxSkew": 1, "whenUnsatisfiable": "ScheduleAnyway"}, {**ZONE, "maxSkew": 2}], [(RQ, f"{F}.topologyKey")]),
    ("duplicate constraints", [ZONE, {**ZONE, "maxSkew": 2}], [(DU, f"{F}.{{topologyKey, whenUnsatisfiable}}")]),
    ("supported policy name set on NodeAffinityPolicy and NodeTaintsPolicy", [{**ZONE, "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Ignore"}], []),
    ("unsupported policy name set on NodeAffinityPolicy", [{**ZONE, "nodeAffinityPolicy": "Unknown", "nodeTaintsPolicy": "Ignore"}], [(NS, f"{F}.nodeAffinityPolicy")]),
    ("unsupported policy name set on NodeTaintsPolicy", [{**ZONE, "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Unknown"}], [(NS, f"{F}.nodeTaintsPolicy")]),
    ("key in MatchLabelKeys isn't correctly defined", [{**ZONE, "labelSelector": {}, "matchLabelKeys": ["/simple"]}], [(IN, f"{F}.matchLabelKeys[0]")]),
    ("key exists in both MatchLabelKeys and LabelSelector", [{**ZONE, "matchLabelKeys": ["foo"], "labelSelector": {"matchExpressions": NOT_IN}}], [(IN, f"{F}[0]")]),
    ("key in MatchLabelKeys is forbidden to be specified when LabelSelector is not set", [{**ZONE, "matchLabelKeys": ["foo"]}], [(FB, f"{F}.matchLabelKeys")]),
    ("invalid MatchLabels set on LabelSelector when AllowInvalidTopologySpreadConstraintLabelSelector is false",
     [{**ZONE, "labelSelector": {"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "foo"}}}], [(IN, f"{F}.labelSelector.matchLabels")]),
    ("valid MatchLabels set on LabelSelector", [{**ZONE, "labelSelector": {"matchLabels": {"foo": "foo"}}}], []),
    ("valid MatchLabelKeys when OldPodViolatesMatchLabelKeysValidation is false",
     [{**ZONE, "matchLabelKeys": ["foo"], "labelSelector": {"matchExpressions": NOT_IN[:1]}}], []),
]


@pytest.mark.parametrize(("constraints", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_topology_spread_constraints_1_36(constraints: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    errs = validate_topology_spread_constraints(constraints, Path("field"), resolve_release("1.36"))
    assert [(e.type, e.field) for e in errs] == expected


@pytest.mark.parametrize(("constraints", "expected"), [
    # "... when AllowMatchLabelKeysInPodTopologySpreadSelectorMerge is false"
    ([{**ZONE, "labelSelector": {}, "matchLabelKeys": ["/simple"]}], [(IN, f"{F}.matchLabelKeys[0]")]),
    ([{**ZONE, "matchLabelKeys": ["foo"], "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": ["value1", "value2"]}]}}],
     [(IN, f"{F}.matchLabelKeys[0]")]),
    ([{**ZONE, "matchLabelKeys": ["foo"]}], [(FB, f"{F}.matchLabelKeys")]),
    ([{**ZONE, "matchLabelKeys": ["foo"], "labelSelector": {"matchExpressions": []}}], []),
])
def test_match_label_keys_before_the_selector_merge(constraints: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    errs = validate_topology_spread_constraints(constraints, Path("field"), resolve_release("1.33"))
    assert [(e.type, e.field) for e in errs] == expected


def test_pod_affinity_match_and_mismatch_label_keys_1_36() -> None:
    """validatePodAffinityTerm → ValidateMatchLabelKeysAndMismatchLabelKeys (TestValidatePod @release-4.23
    matchLabelKeys/mismatchLabelKeys rows: a key in both lists; keys without a labelSelector)."""
    from tests.core.apis._create import create

    term = {"topologyKey": "k8s.io/zone", "labelSelector": {"matchExpressions": [{"key": "key", "operator": "In", "values": ["v"]}]},
            "matchLabelKeys": ["samekey"], "mismatchLabelKeys": ["samekey"]}
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
               "containers": [{"name": "c", "image": "i"}], "affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                   term, {"topologyKey": "k8s.io/zone", "mismatchLabelKeys": ["x"]}]}}}}}}
    p = "spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution"
    errs, warnings, _ = create(obj)
    assert [str(e) for e in errs] == [
        f'{p}[0].matchLabelKeys[0]: Invalid value: "samekey": exists in both matchLabelKeys and mismatchLabelKeys',
        f"{p}[1].mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
    ]


def _pod(release: str, **spec: Any) -> list[str]:
    from tests.core.apis._create import create

    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d", "labels": {"app": "x"}},
           "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i"}], **spec}}
    return [str(e) for e in create(obj, release)[0]]


@pytest.mark.parametrize(("release", "expected"), [
    ("1.33", ['spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector']),
    ("1.34", ['spec.topologySpreadConstraints[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector']),
])
def test_pod_topology_spread_selector_merge(release: str, expected: list[str]) -> None:
    """The Pod strategy's mutateTopologySpreadConstraints (1.34+, MatchLabelKeysInPodTopologySpreadSelectorMerge)
    merges ``app In [x]`` into the selector before ValidateMatchLabelKeysAndMismatchLabelKeys sees it; 1.33 checks
    the unmerged selector with ValidateMatchLabelKeysInTopologySpread."""
    tsc = {**ZONE, "matchLabelKeys": ["app"], "labelSelector": {"matchLabels": {"app": "x"}}}
    assert _pod(release, topologySpreadConstraints=[tsc]) == expected


def test_pod_affinity_label_keys_are_merged_from_1_31() -> None:
    """mutatePodAffinity (MatchLabelKeysInPodAffinity on from 1.31): ``app In [x]`` joins a selector that already
    selects ``app``."""
    term = {"topologyKey": "k8s.io/zone", "labelSelector": {"matchLabels": {"app": "x"}}, "matchLabelKeys": ["app"]}
    affinity = {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}
    p = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
    assert _pod("1.31", affinity=affinity) == [f'{p}[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector']
    assert _pod("1.30", affinity=affinity) == []  # the field is dropped (gate off)
