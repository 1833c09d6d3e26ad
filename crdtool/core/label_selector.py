"""Label selectors as the apiserver matches them: ``k8s.io/apimachinery`` ``pkg/apis/meta/v1/helpers.go``
(``LabelSelectorAsSelector``) and ``pkg/labels/selector.go`` (``Requirement.Matches``), v0.30.0 … v0.37.0-beta.0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LabelSelectorError", "is_empty", "matches"]


class LabelSelectorError(ValueError):
    """``LabelSelectorAsSelector``'s error (an operator it does not know, a bad requirement)."""


def is_empty(selector: Mapping[str, Any] | None) -> bool:
    """``Selector.Empty()`` of ``LabelSelectorAsSelector(selector)``: a present selector without
    requirements (it matches everything). A nil selector is ``labels.Nothing()``, not empty."""
    if selector is None:
        return False
    return not selector.get("matchLabels") and not selector.get("matchExpressions")


def matches(selector: Mapping[str, Any] | None, labels: Mapping[str, Any] | None) -> bool:
    """Whether ``labels`` satisfy ``selector`` (a ``metav1.LabelSelector`` as JSON).

    A nil selector matches nothing; an empty one everything. Raises :class:`LabelSelectorError` for an
    operator other than ``In``, ``NotIn``, ``Exists``, ``DoesNotExist`` (``"%q is not a valid label selector
    operator"``) or ``In``/``NotIn`` without values.
    """
    if selector is None:
        return False
    labels = labels or {}
    for key, value in (selector.get("matchLabels") or {}).items():
        if key not in labels or labels[key] != value:
            return False
    for expr in selector.get("matchExpressions") or []:
        key = expr.get("key", "")
        op = expr.get("operator", "")
        values = list(expr.get("values") or [])
        if op in ("In", "NotIn") and not values:
            raise LabelSelectorError("values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty")
        if op == "In":
            if key not in labels or labels[key] not in values:
                return False
        elif op == "NotIn":
            if key in labels and labels[key] in values:
                return False
        elif op == "Exists":
            if key not in labels:
                return False
        elif op == "DoesNotExist":
            if key in labels:
                return False
        else:
            raise LabelSelectorError(f'"{op}" is not a valid label selector operator')
    return True
