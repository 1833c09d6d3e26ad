"""CRD field errors in each release's text: apimachinery ``pkg/util/validation/field/errors.go`` ``ErrorBody``.

@v0.33.0 a struct bad value prints with ``%#v`` (the internal ``apiextensions.ValidationRule``, nil pointers as
``(*T)(nil)``); @v0.34.0 with ``json.Marshal`` (its fields have no json tags: ``{"Rule":...}``).
"""

from __future__ import annotations

from crdtool import check_crd_manifest
from crdtool.core.crd.internal_json import internal_validation_rule
from crdtool.core.errors import UNREPRODUCIBLE_GO_VALUE, invalid

CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {
        "group": "example.com",
        "names": {"kind": "Widget", "plural": "widgets"},
        "scope": "Namespaced",
        "versions": [{
            "name": "v1", "served": True, "storage": True,
            "schema": {"openAPIV3Schema": {
                "type": "object",
                "x-kubernetes-validations": [{"rule": "self.nope > 0", "message": "m"}],
            }},
        }],
    },
}


def message(version: str) -> str:
    (finding,) = check_crd_manifest(CRD, kubernetes_version=version).findings
    return str(finding.error)


def test_a_rule_prints_as_the_go_struct_before_1_34() -> None:
    assert message("1.33").startswith(
        'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: '
        'apiextensions.ValidationRule{Rule:"self.nope > 0", Message:"m", MessageExpression:"", '
        'Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: '
        "compilation failed: ERROR: <input>:1:5: undefined field 'nope'"
    )


def test_a_rule_prints_as_json_from_1_34() -> None:
    assert message("1.34").startswith(
        'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: '
        '{"Rule":"self.nope \\u003e 0","Message":"m","MessageExpression":"","Reason":null,"FieldPath":"",'
        '"OptionalOldSelf":null}: compilation failed:'
    )
    assert message("1.37") == message("1.34")


def test_a_set_pointer_field_cannot_be_reproduced() -> None:
    rule = internal_validation_rule({"rule": "self.x > 0", "optionalOldSelf": True})
    assert UNREPRODUCIBLE_GO_VALUE in str(invalid("x", rule, "d").at_release(33))


# status.storedVersions is a []string (ValidateCustomResourceDefinitionStoredVersions, validation.go@v0.33.0:260):
# PrepareForCreate leaves it nil without a storage version, which json.Marshal writes as null (v0.34.0) and %#v as
# []string(nil) (v0.33.0); an empty but non-nil one is [] and []string{}; "must have the storage version" shows it.
NO_STORAGE = {**CRD, "spec": {**CRD["spec"], "versions": [{**CRD["spec"]["versions"][0], "storage": False}]}}


def stored_versions_message(crd: dict, version: str) -> str:
    found = [f.error for f in check_crd_manifest(crd, kubernetes_version=version).findings
             if f.error.field == "status.storedVersions"]
    assert len(found) == 1
    return str(found[0])


def test_stored_versions_print_as_a_go_string_slice() -> None:
    tail = ": must have at least one stored version"
    assert stored_versions_message(NO_STORAGE, "1.37") == "status.storedVersions: Invalid value: null" + tail
    assert stored_versions_message(NO_STORAGE, "1.34") == "status.storedVersions: Invalid value: null" + tail
    assert stored_versions_message(NO_STORAGE, "1.33") == "status.storedVersions: Invalid value: []string(nil)" + tail
    from crdtool.core.crd.validation import validate_custom_resource_definition_stored_versions as stored
    from crdtool.core.errors import Path, errors_at_release

    versions = [{"name": "v1", "storage": True}, {"name": "v2", "storage": False}]
    (empty,) = stored([], versions, Path("status.storedVersions"))
    assert str(empty) == "status.storedVersions: Invalid value: []" + tail
    assert str(errors_at_release([empty], 33)[0]) == "status.storedVersions: Invalid value: []string{}" + tail
    (missing,) = stored(["v2"], versions, Path("status.storedVersions"))
    assert str(missing) == 'status.storedVersions: Invalid value: ["v2"]: must have the storage version v1'
    assert str(errors_at_release([missing], 33)[0]) == (
        'status.storedVersions: Invalid value: []string{"v2"}: must have the storage version v1')
    assert empty.to_dict()["badValue"] == [] and stored(None, versions, Path("x"))[0].to_dict()["badValue"] is None


# spec.Versions ([]apiextensions.CustomResourceDefinitionVersion, validation.go@v0.33.0:443) before 1.34: %#v of
# the internal structs (types.go@v0.30.0 and @v0.33.0 have the same fields), nil pointers and slices typed; the
# single version's schema has moved to spec.validation in the internal CRD, so its Schema is nil.
def test_versions_print_as_go_structs_before_1_34() -> None:
    (finding,) = [f for f in check_crd_manifest(NO_STORAGE, kubernetes_version="1.33").findings
                  if f.error.field == "spec.versions"]
    assert str(finding.error) == (
        "spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{"
        'apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:false, '
        "DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), "
        "Subresources:(*apiextensions.CustomResourceSubresources)(nil), "
        "AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), "
        "SelectableFields:[]apiextensions.SelectableField(nil)}}: must have exactly one version marked as storage version"
    )
    (newer,) = [f for f in check_crd_manifest(NO_STORAGE, kubernetes_version="1.34").findings
                if f.error.field == "spec.versions"]
    assert str(newer.error).startswith('spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,')
    # columns that differ between versions stay per version (identical ones move to spec.additionalPrinterColumns)
    columns = {**NO_STORAGE["spec"]["versions"][0], "additionalPrinterColumns": [
        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp", "priority": 1}]}
    other = {**NO_STORAGE["spec"]["versions"][0], "name": "v2"}
    with_columns = {**NO_STORAGE, "spec": {**NO_STORAGE["spec"], "versions": [columns, other]}}
    (found,) = [f for f in check_crd_manifest(with_columns, kubernetes_version="1.33").findings
                if f.error.field == "spec.versions"]
    assert ('AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition{apiextensions.'
            'CustomResourceColumnDefinition{Name:"Age", Type:"date", Format:"", Description:"", Priority:1, '
            'JSONPath:".metadata.creationTimestamp"}}') in str(found.error)
    deprecated = {**NO_STORAGE["spec"]["versions"][0], "deprecationWarning": "old"}
    with_pointer = {**NO_STORAGE, "spec": {**NO_STORAGE["spec"], "versions": [deprecated]}}
    (found,) = [f for f in check_crd_manifest(with_pointer, kubernetes_version="1.33").findings
                if f.error.field == "spec.versions"]
    assert UNREPRODUCIBLE_GO_VALUE in str(found.error)  # a set *string prints its address


# ValidateCABundle (apiserver pkg/util/webhook/validation.go@v0.33.0) passes the []byte: %#v names it []uint8.
def test_a_ca_bundle_prints_as_go_bytes_before_1_34() -> None:
    import base64

    from crdtool.core.errors import Path, errors_at_release
    from crdtool.core.webhook import validate_ca_bundle

    (error,) = validate_ca_bundle(Path("caBundle"), base64.b64encode(b"--\n").decode())
    assert str(error) == 'caBundle: Invalid value: "LS0K": unable to load root certificates: unable to parse bytes as PEM block'
    assert str(errors_at_release([error], 33)[0]) == (
        "caBundle: Invalid value: []uint8{0x2d, 0x2d, 0xa}: unable to load root certificates: unable to parse bytes as PEM block")


# The root schema beside a status subresource (validation.go@v0.33.0:907 passes *schema) and a list-map's items
# array (validation.go@v0.33.0:1170 passes schema.Items, dereferenced by ErrorBody) before 1.34: %#v of the
# internal JSONSchemaProps (types_jsonschema.go: the same fields @v0.30.0 and @v0.33.0), written from fmt's rules
# (fmt/print.go printValue with sharpV: struct fields in order, nil pointers (*T)(nil), nil slices and maps T(nil),
# named types by name, an interface element by its dynamic value, JSON numbers as float64).
_NIL_REST = (
    "MaxProperties:(*int64)(nil), MinProperties:(*int64)(nil), Required:[]string(nil), "
    "Items:(*apiextensions.JSONSchemaPropsOrArray)(nil), AllOf:[]apiextensions.JSONSchemaProps(nil), "
    "OneOf:[]apiextensions.JSONSchemaProps(nil), AnyOf:[]apiextensions.JSONSchemaProps(nil), "
    "Not:(*apiextensions.JSONSchemaProps)(nil), "
)
_NIL_TAIL = (
    "AdditionalProperties:(*apiextensions.JSONSchemaPropsOrBool)(nil), "
    "PatternProperties:map[string]apiextensions.JSONSchemaProps(nil), "
    "Dependencies:apiextensions.JSONSchemaDependencies(nil), AdditionalItems:(*apiextensions.JSONSchemaPropsOrBool)(nil), "
    "Definitions:apiextensions.JSONSchemaDefinitions(nil), ExternalDocs:(*apiextensions.ExternalDocumentation)(nil), "
    "Example:(*apiextensions.JSON)(nil), XPreserveUnknownFields:(*bool)(nil), XEmbeddedResource:false, "
    "XIntOrString:false, XListMapKeys:[]string(nil), XListType:(*string)(nil), XMapType:(*string)(nil), "
)


def _props(type_: str, enum: str, properties: str, validations: str) -> str:
    return (
        f'apiextensions.JSONSchemaProps{{ID:"", Schema:"", Ref:(*string)(nil), Description:"", Type:"{type_}", '
        'Nullable:false, Format:"", Title:"", Default:(*apiextensions.JSON)(nil), Maximum:(*float64)(nil), '
        "ExclusiveMaximum:false, Minimum:(*float64)(nil), ExclusiveMinimum:false, MaxLength:(*int64)(nil), "
        'MinLength:(*int64)(nil), Pattern:"", MaxItems:(*int64)(nil), MinItems:(*int64)(nil), UniqueItems:false, '
        f"MultipleOf:(*float64)(nil), Enum:{enum}, " + _NIL_REST + f"Properties:{properties}, " + _NIL_TAIL
        + f"XValidations:{validations}}}"
    )


def test_a_root_schema_prints_as_the_go_struct_before_1_34() -> None:
    root = {"type": "object", "enum": [{"spec": {}}, 1, "x"],
            "properties": {"spec": {"type": "string", "x-kubernetes-validations": [{"rule": "true"}]}}}
    version = {"name": "v1", "served": True, "storage": True, "subresources": {"status": {}},
               "schema": {"openAPIV3Schema": root}}
    crd = {**CRD, "spec": {**CRD["spec"], "versions": [version]}}
    (finding,) = [f for f in check_crd_manifest(crd, kubernetes_version="1.33").findings
                  if f.error.field == "spec.versions[0].schema.openAPIV3Schema"]
    spec = _props("string", "[]apiextensions.JSON(nil)", "map[string]apiextensions.JSONSchemaProps(nil)",
                  'apiextensions.ValidationRules{apiextensions.ValidationRule{Rule:"true", Message:"", '
                  'MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", '
                  "OptionalOldSelf:(*bool)(nil)}}")
    expected = _props("object", '[]apiextensions.JSON{map[string]interface {}{"spec":map[string]interface {}{}}, 1, "x"}',
                      'map[string]apiextensions.JSONSchemaProps{"spec":' + spec + "}", "apiextensions.ValidationRules(nil)")
    assert str(finding.error).startswith(f"spec.versions[0].schema.openAPIV3Schema: Invalid value: {expected}: only [")
    newer = [f for f in check_crd_manifest(crd, kubernetes_version="1.34").findings
             if f.error.field == "spec.versions[0].schema.openAPIV3Schema"]
    assert str(newer[0].error).startswith('spec.versions[0].schema.openAPIV3Schema: Invalid value: {"ID":"",')
    root_with_pointer = {**root, "maxProperties": 3}  # MaxProperties is a *int64: Go prints its address
    version_with_pointer = {**version, "schema": {"openAPIV3Schema": root_with_pointer}}
    crd = {**CRD, "spec": {**CRD["spec"], "versions": [version_with_pointer]}}
    (finding,) = [f for f in check_crd_manifest(crd, kubernetes_version="1.33").findings
                  if f.error.field == "spec.versions[0].schema.openAPIV3Schema"]
    assert f"Invalid value: {UNREPRODUCIBLE_GO_VALUE}: only [" in str(finding.error)


def test_a_list_map_items_array_prints_as_the_go_struct_before_1_34() -> None:
    from crdtool.core.crd.internal_json import internal_schema_or_array
    from crdtool.core.errors import Path, errors_at_release

    error = invalid(Path("items"), internal_schema_or_array([{"type": "object"}]),
                    "must only have a single schema if x-kubernetes-list-type is map")
    item = _props("object", "[]apiextensions.JSON(nil)", "map[string]apiextensions.JSONSchemaProps(nil)",
                  "apiextensions.ValidationRules(nil)")
    assert str(errors_at_release([error], 33)[0]) == (
        "items: Invalid value: apiextensions.JSONSchemaPropsOrArray{Schema:(*apiextensions.JSONSchemaProps)(nil), "
        f"JSONSchemas:[]apiextensions.JSONSchemaProps{{{item}}}}}: must only have a single schema if x-kubernetes-list-type is map")


def test_a_schema_nested_too_deeply_for_the_printer_gets_the_placeholder() -> None:
    """_go_sharp_v recurses: a schema nested deeper than Python's recursion allows prints the placeholder
    (the CRD checks walk it iteratively) instead of raising."""
    import sys

    from crdtool.core.crd.internal_json import internal_schema
    from crdtool.core.errors import Path, errors_at_release

    schema: dict = {"type": "object"}
    node = schema
    for _ in range(sys.getrecursionlimit()):
        child: dict = {"type": "object"}
        node["properties"] = {"a": child}
        node = child
    error = invalid(Path("openAPIV3Schema"), internal_schema(schema), "only [...] fields are allowed")
    assert str(errors_at_release([error], 33)[0]) == (
        f"openAPIV3Schema: Invalid value: {UNREPRODUCIBLE_GO_VALUE}: only [...] fields are allowed")
