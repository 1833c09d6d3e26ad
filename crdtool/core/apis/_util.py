"""Small helpers shared by the API groups: Go zero values of decoded JSON, the release, label selectors.

``LabelSelector`` handling mirrors k8s.io/apimachinery ``pkg/apis/meta/v1/validation/validation.go``
(``ValidateLabelSelector``, ``ValidateLabelSelectorRequirement``) and ``pkg/apis/meta/v1/helpers.go``
(``LabelSelectorAsSelector``) with ``pkg/labels/selector.go`` (``NewRequirement``, ``Matches``), identical
@v0.30.0 … @v0.36.x.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from crdtool.core.errors import FieldError, Path, forbidden, invalid, required
from crdtool.core.objectmeta import validate_label_name, validate_labels
from crdtool.core.releases import Release, resolve_release
from crdtool.core.validation_util import is_qualified_name, is_valid_label_value


def rel(release: str | int | Release | None) -> Release:
    """The :class:`Release` of a release argument (``"1.33"``, 33, a Release or None)."""
    return resolve_release(release)


def s(v: Any) -> str:
    """A string field (Go zero value ``""``)."""
    return v if isinstance(v, str) else ""


def i(v: Any) -> int:
    """An integer field (Go zero value 0)."""
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def m(v: Any) -> Mapping[str, Any]:
    """An object or map field (Go zero value: empty)."""
    return v if isinstance(v, dict) else {}


def ensure_dict(obj: dict[str, Any], key: str) -> dict[str, Any]:
    """``obj[key]`` as a dict, created when absent or null (a defaulter filling a nil struct pointer)."""
    v = obj.get(key)
    if not isinstance(v, dict):
        v = {}
        obj[key] = v
    return v


def lst(v: Any) -> Sequence[Any]:
    """A list field (Go zero value: empty)."""
    return v if isinstance(v, list) else []


def nonnegative(value: int, path: Path) -> list[FieldError]:
    """Upstream ``ValidateNonnegativeField``."""
    if value < 0:
        return [invalid(path, value, "must be greater than or equal to 0")]
    return []


def validate_label_selector(
    ps: Any, path: Path, release: Release, allow_invalid_label_value: bool = False
) -> list[FieldError]:
    """Upstream ``metav1validation.ValidateLabelSelector`` (``ps`` None: nothing)."""
    if not isinstance(ps, dict):
        return []
    errs = validate_labels(m(ps.get("matchLabels")), path.child("matchLabels"), release) if ps.get("matchLabels") else []
    for index, expr in enumerate(lst(ps.get("matchExpressions"))):
        expr = m(expr)
        p = path.child("matchExpressions").index(index)
        op = s(expr.get("operator"))
        values = lst(expr.get("values"))
        if op in ("In", "NotIn"):
            if not values:
                errs.append(required(p.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
        elif op in ("Exists", "DoesNotExist"):
            if values:
                errs.append(forbidden(p.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
        else:
            errs.append(invalid(p.child("operator"), op, "not a valid selector operator"))
        errs.extend(validate_label_name(s(expr.get("key")), p.child("key"), release))
        if not allow_invalid_label_value:
            for vi, value in enumerate(values):
                for msg in is_valid_label_value(s(value), release):
                    errs.append(invalid(p.child("values").index(vi), value, msg))
    return errs


def selector_ok(ps: Any, release: Release) -> bool:
    """Whether ``metav1.LabelSelectorAsSelector`` succeeds (``labels.NewRequirement`` accepts every term)."""
    if not isinstance(ps, dict):
        return True
    for k, v in m(ps.get("matchLabels")).items():
        if is_qualified_name(k, release) or is_valid_label_value(s(v), release):
            return False
    for expr in lst(ps.get("matchExpressions")):
        expr = m(expr)
        op = s(expr.get("operator"))
        values = lst(expr.get("values"))
        if op not in ("In", "NotIn", "Exists", "DoesNotExist"):
            return False
        if is_qualified_name(s(expr.get("key")), release):
            return False
        if op in ("In", "NotIn") and not values:
            return False
        if op in ("Exists", "DoesNotExist") and values:
            return False
        if any(is_valid_label_value(s(v), release) for v in values):
            return False
    return True


def selector_empty(ps: Any) -> bool:
    """``LabelSelectorAsSelector(ps).Empty()``: a selector with no terms is ``labels.Everything()`` (empty); a nil
    one is ``labels.Nothing()``, which is not empty (apimachinery pkg/apis/meta/v1/helpers.go, pkg/labels
    ``nothingSelector.Empty``), so a nil selector still checks the template's labels, and matches none."""
    if ps is None:
        return False
    ps = m(ps)
    return not ps.get("matchLabels") and not ps.get("matchExpressions")


def selector_matches(ps: Any, labels: Mapping[str, Any]) -> bool:
    """``LabelSelectorAsSelector(ps).Matches(labels)`` for a valid selector; a nil selector matches nothing."""
    if not isinstance(ps, dict):
        return False
    for k, v in m(ps.get("matchLabels")).items():
        if k not in labels or labels[k] != v:
            return False
    for expr in lst(ps.get("matchExpressions")):
        expr = m(expr)
        key, op, values = s(expr.get("key")), s(expr.get("operator")), lst(expr.get("values"))
        has = key in labels
        if op == "In" and not (has and labels[key] in values):
            return False
        if op == "NotIn" and has and labels[key] in values:
            return False
        if op == "Exists" and not has:
            return False
        if op == "DoesNotExist" and has:
            return False
    return True


def _go_string_map(value: Mapping[str, Any] | None) -> str:
    """Go's ``%#v`` of a ``map[string]string`` (keys sorted, as fmt prints maps)."""
    from crdtool.core.errors import go_quote

    if value is None:
        return "map[string]string(nil)"
    return "map[string]string{" + ", ".join(f"{go_quote(k)}:{go_quote(s(value[k]))}" for k in sorted(value)) + "}"


def go_labels(labels: Any) -> Any:
    """A label map as a bad value: JSON from 1.34, Go's ``%#v`` of a ``map[string]string`` before
    (``map[string]string(nil)`` when the object has none)."""
    from crdtool.core.errors import GoNil, go_typed

    if not isinstance(labels, dict):
        return GoNil("map[string]string(nil)")
    return go_typed(dict(labels), _go_string_map(labels))


def go_label_selector(sel: Any) -> Any:
    """A ``*metav1.LabelSelector`` as a bad value: JSON from 1.34, Go's ``%#v`` before."""
    from crdtool.core.errors import go_quote, go_typed

    if not isinstance(sel, dict):
        return None
    reqs = []
    for expr in lst(sel.get("matchExpressions")):
        expr = m(expr)
        values = expr.get("values")
        vs = "[]string(nil)" if not isinstance(values, list) else "[]string{" + ", ".join(go_quote(s(v)) for v in values) + "}"
        reqs.append(f'v1.LabelSelectorRequirement{{Key:{go_quote(s(expr.get("key")))}, Operator:{go_quote(s(expr.get("operator")))}, Values:{vs}}}')
    ml = sel.get("matchLabels")
    me = "[]v1.LabelSelectorRequirement(nil)" if not isinstance(sel.get("matchExpressions"), list) else "[]v1.LabelSelectorRequirement{" + ", ".join(reqs) + "}"
    go_v = f"&v1.LabelSelector{{MatchLabels:{_go_string_map(ml if isinstance(ml, dict) else None)}, MatchExpressions:{me}}}"
    return go_typed(dict(sel), go_v)


def go_pointer(value: Any) -> Any:
    """A bad value upstream passes as a Go pointer (``*int32``, ``*string``): rendered as the value it points to in
    every release — ``field.Error.ErrorBody`` dereferences a non-nil pointer before printing it (``%v``/``%q``) up to
    1.33 (apimachinery release-4.17 … 4.20), and ``json.Marshal`` writes the pointee from 1.34."""
    return value


def go_int_or_string(value: Any) -> Any:
    """An ``intstr.IntOrString`` bad value: JSON (``"25%"``, ``1``) from 1.34, ``%#v`` of the struct before."""
    from crdtool.core.errors import go_quote, go_typed

    if isinstance(value, str):
        return go_typed(value, f"intstr.IntOrString{{Type:1, IntVal:0, StrVal:{go_quote(value)}}}")
    n = i(value)
    return go_typed(n, f"intstr.IntOrString{{Type:0, IntVal:{n}, StrVal:\"\"}}")


# --- internal (pkg/apis/<group>) structs as bad values -------------------------------------------------------------
# The internal types have no ``json`` tags: from 1.34 ``json.Marshal`` writes every field under its Go name (a nil
# pointer or slice as null); before, ``ErrorBody`` dereferences a top-level pointer and prints ``%#v`` (an address
# for any non-nil pointer inside, which crdtool does not reproduce).


def _go_json_int_or_string(value: Any) -> Any:
    return value if isinstance(value, str) else i(value)


def go_rolling_update_stateful_set(ru: Any) -> Any:
    """``*apps.RollingUpdateStatefulSetStrategy`` (``Partition int32``, ``MaxUnavailable *intstr.IntOrString``)."""
    from crdtool.core.errors import go_typed
    from crdtool.core.gojson import GoStruct

    if not isinstance(ru, dict):
        return None
    mu = ru.get("maxUnavailable")
    value = GoStruct({"Partition": i(ru.get("partition")), "MaxUnavailable": None if mu is None else _go_json_int_or_string(mu)})
    go_v = None if mu is not None else f"apps.RollingUpdateStatefulSetStrategy{{Partition:{i(ru.get('partition'))}, MaxUnavailable:(*intstr.IntOrString)(nil)}}"
    return go_typed(value, go_v)


def go_stateful_set_update_strategy(us: Any) -> Any:
    """``apps.StatefulSetUpdateStrategy`` (``Type``, ``RollingUpdate *RollingUpdateStatefulSetStrategy``)."""
    from crdtool.core.errors import go_quote, go_typed
    from crdtool.core.gojson import GoStruct

    us = m(us)
    ru = us.get("rollingUpdate")
    inner = go_rolling_update_stateful_set(ru)
    value = GoStruct({"Type": s(us.get("type")), "RollingUpdate": None if inner is None else GoStruct(inner)})
    go_v = None if inner is not None else f"apps.StatefulSetUpdateStrategy{{Type:{go_quote(s(us.get('type')))}, RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}}"
    return go_typed(value, go_v)


def go_success_policy(sp: Any) -> Any:
    """``*batch.SuccessPolicy`` (``Rules []SuccessPolicyRule``; a rule: ``SucceededIndexes *string``,
    ``SucceededCount *int32``)."""
    from crdtool.core.errors import go_typed
    from crdtool.core.gojson import GoStruct

    sp = m(sp)
    rules = sp.get("rules")
    if not isinstance(rules, list):
        return go_typed(GoStruct({"Rules": None}), "batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule(nil)}")
    items = [GoStruct({"SucceededIndexes": m(r).get("succeededIndexes"), "SucceededCount": m(r).get("succeededCount")}) for r in rules]
    pointers = any(v is not None for item in items for v in item.values())
    go_v = None if pointers else "batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{" + ", ".join(
        "batch.SuccessPolicyRule{SucceededIndexes:(*string)(nil), SucceededCount:(*int32)(nil)}" for _ in items) + "}}"
    return go_typed(GoStruct({"Rules": items}), go_v)


def _go_json_label_selector(sel: Any) -> Any:
    """A ``*metav1.LabelSelector`` for ``json.Marshal`` (json tags, ``omitempty``), or None."""
    from crdtool.core.gojson import GoStruct

    if not isinstance(sel, dict):
        return None
    out = GoStruct()
    if m(sel.get("matchLabels")):
        out["matchLabels"] = dict(m(sel.get("matchLabels")))
    exprs = lst(sel.get("matchExpressions"))
    if exprs:
        items = []
        for expr in exprs:
            item = GoStruct({"key": s(m(expr).get("key")), "operator": s(m(expr).get("operator"))})
            if lst(m(expr).get("values")):
                item["values"] = list(lst(m(expr).get("values")))
            items.append(item)
        out["matchExpressions"] = items
    return out


def go_pod_disruption_budget_spec(spec: Mapping[str, Any]) -> Any:
    """``policy.PodDisruptionBudgetSpec`` (internal, no json tags: ``MinAvailable``, ``Selector``,
    ``MaxUnavailable``, ``UnhealthyPodEvictionPolicy``); its ``%#v`` holds pointers (not reproduced)."""
    from crdtool.core.errors import go_typed
    from crdtool.core.gojson import GoStruct

    def ios(v: Any) -> Any:
        return None if v is None else _go_json_int_or_string(v)

    value = GoStruct({"MinAvailable": ios(spec.get("minAvailable")), "Selector": _go_json_label_selector(spec.get("selector")),
                      "MaxUnavailable": ios(spec.get("maxUnavailable")), "UnhealthyPodEvictionPolicy": spec.get("unhealthyPodEvictionPolicy")})
    return go_typed(value, None)
