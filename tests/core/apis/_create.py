"""The create path as the tests drive it: ``set_defaults``, ``prepare_for_create``, ``validate``, warnings."""

from __future__ import annotations

import copy
import importlib
from typing import Any

from crdtool.core.registry.strategies import STRATEGIES, defaults_module


def create(obj: dict[str, Any], release: str = "1.36") -> tuple[list[Any], list[str], dict[str, Any]]:
    """(errors, warnings, the object as stored) for ``obj`` (not changed)."""
    obj = copy.deepcopy(obj)
    group, _, version = obj["apiVersion"].rpartition("/")
    defaults_module(group).set_defaults(obj, version, release)  # type: ignore[union-attr]
    strategy = importlib.import_module(STRATEGIES[(group, obj["kind"])])
    strategy.prepare_for_create(obj, release)  # type: ignore[attr-defined]
    errs = strategy.validate(obj, release)  # type: ignore[attr-defined]
    return errs, strategy.warnings_on_create(obj, release), obj  # type: ignore[attr-defined]


def pairs(errs: list[Any]) -> list[tuple[str, str]]:
    """``(type, field)`` of each error, as upstream's tables compare them."""
    return [(e.type, e.field) for e in errs]


def pod_template(labels: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    """Upstream tests' ``validPodTemplate``: one container ``abc`` with image ``image``."""
    body: dict[str, Any] = {"containers": [{"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent"}]}
    body.update(spec)
    return {"metadata": {"labels": labels if labels is not None else {"a": "b"}}, "spec": body}
