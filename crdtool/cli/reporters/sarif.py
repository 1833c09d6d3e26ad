"""``--output sarif``: SARIF 2.1.0 (OASIS), for GitHub code scanning and other SARIF viewers.

One run with one rule per finding kind (``reportingDescriptor``: the upstream
``field.ErrorType`` names, the strict-decoding findings, ``InputError`` and
crdtool's own kinds), one result per finding with a physical location
(``artifactLocation.uri`` relative as given, ``region.startLine`` /
``startColumn`` in Unicode code points) and, for field errors, a logical
location naming the field path. Valid against the OASIS schema
``sarif-schema-2.1.0.json`` (checked in ``tests/cli/test_reporters.py``).
"""

from __future__ import annotations

import json
import os
import urllib.parse
from typing import Any, TextIO

from crdtool.cli.reporters.base import CheckRun, Finding, write_text

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

#: Rule descriptions: upstream ``field.ErrorType`` (k8s.io/apimachinery ``pkg/util/validation/field/errors.go``),
#: the strict decoder's findings (``k8s.io/apimachinery/pkg/runtime/serializer``), then crdtool's kinds.
RULE_DESCRIPTIONS = {
    "FieldValueNotFound": "Not found: the value the field refers to does not exist.",
    "FieldValueRequired": "Required value: a required field is missing or empty.",
    "FieldValueDuplicate": "Duplicate value: a value that must be unique is repeated.",
    "FieldValueInvalid": "Invalid value: the value does not satisfy the field's rules.",
    "FieldValueNotSupported": "Unsupported value: the value is not one of the allowed values.",
    "FieldValueForbidden": "Forbidden: the field may not be set here.",
    "FieldValueTooLong": "Too long: the value is longer than allowed.",
    "FieldValueTooMany": "Too many: the list or map has more items than allowed.",
    "FieldValueTypeInvalid": "Invalid value: the value has the wrong type.",
    "InternalError": "Internal error: the apiserver could not evaluate a rule.",
    "UnknownField": "Unknown field: strict decoding (server-side field validation Strict) rejects it.",
    "DuplicateField": "Duplicate field: a key is given twice in one mapping.",
    "UnmarshalTypeError": "Wrong JSON type: the value cannot be decoded into the field's type.",
    "InputError": "The input could not be read (YAML/JSON syntax, encoding, a missing file).",
    "Warning": "A warning the apiserver or kubectl would show; not an error.",
}


def _uri(file: str) -> str:
    """A URI reference for ``file``: relative paths stay relative (forward slashes), absolute ones become file: URIs."""
    if file == "<stdin>":
        return urllib.parse.quote(file)
    if "://" in file:  # already a URL (a webhook fuzzed over HTTP)
        return file
    if os.path.isabs(file):
        return "file://" + urllib.parse.quote(file.replace(os.sep, "/"))
    return urllib.parse.quote(file.replace(os.sep, "/"))


def _location(f: Finding) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(f.file)}}
    if f.line and f.line > 0:
        region: dict[str, Any] = {"startLine": f.line}
        if f.column and f.column > 0:
            region["startColumn"] = f.column
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if f.field:
        location["logicalLocations"] = [{"fullyQualifiedName": f.field, "kind": "member"}]
    return location


def document(run: CheckRun) -> dict[str, Any]:
    """The SARIF log as a dict: ``{"$schema", "version": "2.1.0", "runs": [one run]}``."""
    from crdtool import __version__

    findings = run.findings
    rule_ids = list(dict.fromkeys(f.rule for f in findings))
    levels = {rid: next(f.level for f in findings if f.rule == rid) for rid in rule_ids}
    rules = []
    for rid in rule_ids:
        text = RULE_DESCRIPTIONS.get(rid) or run.rules.get(rid) or rid
        rule: dict[str, Any] = {
            "id": rid,
            "name": rid,
            "shortDescription": {"text": text},
            "defaultConfiguration": {"level": levels[rid]},
        }
        if rid in run.rule_help:  # lint codes: their name, rationale and the convention's link
            name, help_text, url = run.rule_help[rid]
            rule["name"] = name
            rule["fullDescription"] = {"text": help_text}
            rule["help"] = {"text": f"{help_text} See {url}", "markdown": f"{help_text} [More]({url})"}
            rule["helpUri"] = url
        rules.append(rule)
    index = {rid: i for i, rid in enumerate(rule_ids)}
    results = [
        {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": f.level,
            "message": {"text": f.message},
            "locations": [_location(f)],
        }
        for f in findings
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "crdtool", "version": __version__, "semanticVersion": __version__,
                                    "rules": rules}},
                "invocations": [{"executionSuccessful": True, "commandLine": f"crdtool {run.command}"}],
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def report(run: CheckRun, stream: TextIO) -> None:
    write_text(stream, json.dumps(document(run), indent=2, ensure_ascii=False) + "\n")
