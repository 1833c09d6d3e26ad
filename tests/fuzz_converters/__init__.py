"""Deliberately broken conversion functions for ``crdtool fuzz-roundtrip`` tests (widget-crd.yaml).

Each module holds one kind of bug; :data:`EXPECTED` maps ``module:function``
to the property that must catch it. ``correct`` holds converters that must
never fail.
"""

EXPECTED = {
    "dropped_field:convert": "roundtrip",
    "edge_cases:drop_zero": "roundtrip",
    "edge_cases:drop_empty_string": "roundtrip",
    "edge_cases:drop_empty_object": "roundtrip",
    "edge_cases:drop_null": "roundtrip",
    "edge_cases:parse_numeric_string": "roundtrip",
    "edge_cases:through_float": "roundtrip",
    "identity:keep_api_version": "metadata",
    "identity:rename_object": "metadata",
    "identity:change_kind": "metadata",
    "identity:drop_resource_version": "metadata",
    "identity:invalid_label": "metadata",
    "target_schema:add_unknown_field": "schema",
    "target_schema:wrong_type": "schema",
    "reordered_list:convert": "roundtrip",
    "raises:on_empty_list": "call",
    "raises:returns_json_text": "call",
    "raises:sleeps_on_zero": "call",
    "same_version:strips_name": "unchanged",
}
