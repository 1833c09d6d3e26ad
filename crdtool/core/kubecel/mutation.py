"""The object types of the mutating policies' CEL environment: ``k8s.io/apiserver/pkg/cel/mutation``
(``typeresolver.go`` ``DynamicTypeResolver``, ``jsonpatch.go`` ``JSONPatchType``/``JSONPatchVal``,
``dynamic/objects.go`` ``ObjectType``/``ObjectVal``), v0.32.0 … v0.37.0-beta.0.

``Object`` and every ``Object.<path>`` name an object type whose fields are all ``dyn``; ``JSONPatch`` has
``op``, ``path``, ``from`` (strings) and ``value`` (``dyn``). :func:`new_value` is their ``NewValue``
(the interpreter's struct factory); :func:`to_json` turns a value into JSON data as ``ConvertToNative``
then ``json.Marshal`` do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V

__all__ = ["JSONPatchVal", "ObjectVal", "MutationTypes", "check_type_names", "new_value", "to_json"]

OBJECT_TYPE_NAME = "Object"
JSONPATCH_TYPE_NAME = "JSONPatch"


class MutationTypes:
    """The type provider part of ``DynamicTypeResolver``."""

    def find_struct_type(self, name: str) -> T.Type | None:
        if name == JSONPATCH_TYPE_NAME or name == OBJECT_TYPE_NAME or name.startswith(OBJECT_TYPE_NAME + "."):
            return T.object_type(name)
        return None

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        if struct_name == JSONPATCH_TYPE_NAME:
            return T.STRING if field_name in ("op", "path", "from") else T.DYN
        if self.find_struct_type(struct_name) is not None:
            return T.DYN
        return None


@dataclass(eq=False)
class ObjectVal:
    """``dynamic.ObjectVal``: an ``Object...{}`` value, its fields as CEL values."""

    type_name: str
    fields: dict[str, Any] = field(default_factory=dict)

    go_type = "*dynamic.ObjectVal"

    def native(self) -> dict[str, Any]:
        return {k: to_json(v) for k, v in self.fields.items()}


@dataclass(eq=False)
class JSONPatchVal:
    """``mutation.JSONPatchVal``."""

    op: str = ""
    path: str = ""
    from_: str = ""
    value: Any = None
    has_value: bool = False

    go_type = "*mutation.JSONPatchVal"


def _go_type_name(v: Any) -> str:
    """``%T`` of ``value.Value()``."""
    t = type(v)
    simple = {bool: "bool", int: "int64", float: "float64", bytes: "[]uint8", str: "string"}.get(t)
    if simple is not None:
        return simple
    if v is None:
        return "<nil>"
    if isinstance(v, V.MapValue):
        return "map[ref.Val]ref.Val"
    if isinstance(v, V.ListValue):
        return "[]ref.Val"
    return str(getattr(v, "go_type", t.__name__))


def new_value(type_name: str, values: dict[str, Any]) -> Any:
    """``ObjectType.Val`` / ``JSONPatchType.Val``."""
    if type_name == JSONPATCH_TYPE_NAME:
        out = JSONPatchVal()
        for name, value in values.items():
            if name in ("op", "path", "from"):
                if type(value) is not str:
                    return V.Err(f"unexpected type {_go_type_name(value)} for JSONPatchType '{name}' field")
                setattr(out, "from_" if name == "from" else name, value)
            elif name == "value":
                out.value, out.has_value = value, True
            else:
                return V.Err(f"unexpected JSONPatchType field: {name}")
        return out
    return ObjectVal(type_name, dict(values))


def to_json(v: Any) -> Any:
    """JSON data of a CEL value (``ConvertToNative(structpb.Value)`` then ``json.Marshal``)."""
    if isinstance(v, ObjectVal):
        return v.native()
    if isinstance(v, V.MapValue):
        return {str(V.native_value(k)): to_json(v.get(k)) for k in v.keys()}
    if isinstance(v, V.ListValue):
        return [to_json(e) for e in v.items()]
    if isinstance(v, V.Uint):
        return v.v
    return V.native_value(v)


def check_type_names(v: Any, path: list[str] | None = None) -> list[str]:
    """``CheckTypeNamesMatchFieldPathNames``: each nested ``Object.<path>`` names its place from the root."""
    if path is None:
        path = [v.type_name] if isinstance(v, ObjectVal) else []
    errs: list[str] = []
    if isinstance(v, ObjectVal):
        want = ".".join(path)
        if v.type_name != want:
            errs.append(f'unexpected type name "{v.type_name}", expected "{want}", which matches field name path '
                        "from root Object type")
        for k, f in v.fields.items():
            errs.extend(check_type_names(f, [*path, k]))
    elif isinstance(v, V.ListValue):
        for e in v.items():
            errs.extend(check_type_names(e, path))
    elif isinstance(v, V.MapValue):
        for k in v.keys():
            errs.extend(check_type_names(v.get(k), path))
    return errs
