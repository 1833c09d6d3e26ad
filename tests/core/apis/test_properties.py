"""Properties of the built-in create path: defaulting is idempotent (``SetDefaults_*`` twice changes nothing)
and the strategies never raise on well-shaped objects with random field values (hypothesis)."""

from __future__ import annotations

import copy
import importlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core.registry.strategies import STRATEGIES, defaults_module

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 70000), st.sampled_from(["", "a", "Always", "None", "TCP", "1.5Gi", "0.5", "a/b", "*", "10.0.0.0/8", "..", "x" * 70]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(
    ["name", "image", "port", "ports", "protocol", "type", "selector", "matchLabels", "key", "operator", "values", "spec", "template",
     "metadata", "labels", "containers", "volumes", "secret", "configMap", "emptyDir", "rules", "verbs", "value", "targetPort",
     "nodePort", "clusterIP", "maxSkew", "topologyKey", "schedule", "jobTemplate", "roleRef", "subjects", "env", "valueFrom"]), inner, max_size=4)), max_leaves=12)

_KINDS = sorted(STRATEGIES)
_VERSIONS = {"": "v1", "autoscaling": "v2", "policy": "v1"}


def _object(group: str, kind: str, spec: Any) -> dict[str, Any]:
    version = _VERSIONS.get(group, "v1")
    api_version = f"{group}/{version}" if group else version
    obj: dict[str, Any] = {"apiVersion": api_version, "kind": kind, "metadata": {"name": "n", "namespace": "d"}}
    obj["spec" if kind not in ("ConfigMap", "Secret", "Role", "ClusterRole") else "data"] = spec if isinstance(spec, dict) else {}
    return obj


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_KINDS), _VALUES, st.sampled_from(["1.30", "1.33", "1.36"]))
def test_create_path_never_raises_and_defaults_are_idempotent(key: tuple[str, str], spec: Any, release: str) -> None:
    group, kind = key
    obj = _object(group, kind, spec)
    version = obj["apiVersion"].rpartition("/")[2]
    defaults = defaults_module(group)
    assert defaults is not None
    defaults.set_defaults(obj, version, release)
    once = copy.deepcopy(obj)
    defaults.set_defaults(obj, version, release)
    assert obj == once
    strategy = importlib.import_module(STRATEGIES[key])
    strategy.prepare_for_create(obj, release)
    errs = strategy.validate(obj, release)
    assert all(e.field is not None for e in errs)
    assert isinstance(strategy.warnings_on_create(obj, release), list)
