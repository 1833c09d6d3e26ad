"""When a CRD spec requires structural schemas (crdtool/core/crd/validation.py, validate_custom_resource_definition_spec).

Upstream ``pkg/apis/apiextensions/validation/validation.go`` (v0.30.14 … v0.37.0-beta.0)
``validateCustomResourceDefinitionSpec``: pruning (``preserveUnknownFields`` not true) requires structural schemas;
``specHasDefaults`` requires them too and, with ``preserveUnknownFields`` unset or true, is an error
(``must be false in order to use defaults in the schema``); ``specHasKubernetesExtensions`` requires them. crdtool
walks the schemas for the last two only when the outcome can still change (structural schemas not yet required, or,
for defaults, ``preserveUnknownFields`` not false): these cases pin the outcome of every combination, the
requirement seen through the structural error of a schema property without a type.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from crdtool.core.crd.options import CREATE_OPTIONS
from crdtool.core.crd.validation import validate_custom_resource_definition_spec
from crdtool.core.errors import Path

NO_TYPE = "must not be empty for specified object fields"
PUF_DEFAULTS = "must be false in order to use defaults in the schema"


def _spec(puf: bool | None, *, default: bool, extension: bool) -> dict[str, Any]:
    props: dict[str, Any] = {"a": {"description": "no type"}}
    if default:
        props["d"] = {"type": "string", "default": "x"}
    if extension:
        props["e"] = {"x-kubernetes-int-or-string": True}
    spec: dict[str, Any] = {
        "group": "example.com", "scope": "Namespaced",
        "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
        "versions": [{"name": "v1", "served": True, "storage": True,
                      "schema": {"openAPIV3Schema": {"type": "object", "properties": props}}}],
    }
    if puf is not None:
        spec["preserveUnknownFields"] = puf
    return spec


@pytest.mark.parametrize("puf", [None, True, False])
@pytest.mark.parametrize("default", [False, True])
@pytest.mark.parametrize("extension", [False, True])
@pytest.mark.parametrize("require_structural", [False, True])
@pytest.mark.parametrize("allow_defaults", [False, True])
def test_structural_requirement(puf: bool | None, default: bool, extension: bool, require_structural: bool,
                                allow_defaults: bool) -> None:
    opts = dataclasses.replace(CREATE_OPTIONS, require_structural_schema=require_structural,
                               require_open_api_schema=False, allow_defaults=allow_defaults)
    errs = validate_custom_resource_definition_spec(_spec(puf, default=default, extension=extension), opts,
                                                    Path("spec"))
    details = [e.detail for e in errs]
    required = (require_structural or puf is not True or (allow_defaults and default) or extension)
    assert (NO_TYPE in details) is required
    assert (PUF_DEFAULTS in details) is (allow_defaults and default and puf is not False)
