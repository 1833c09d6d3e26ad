"""``crdtool validate``: load documents, judge each CRD, report, pick the exit code."""

from __future__ import annotations

import sys
from typing import Any

from crdtool.cli.inputs import Document, InputError, load_inputs
from crdtool.cli.report import REPORTER_BY_NAME, DocumentResult, OutputFormat
from crdtool.core.crd.manifest import CRD_API_VERSIONS, check_crd_manifest, is_crd
from crdtool.core.errors import duplicate_field


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _identity(doc: Document) -> tuple[str | None, str | None, str | None]:
    data = doc.data if isinstance(doc.data, dict) else {}
    meta = data.get("metadata")
    name = _str_or_none(meta.get("name")) if isinstance(meta, dict) else None
    return _str_or_none(data.get("apiVersion")), _str_or_none(data.get("kind")), name


def input_error_result(err: InputError) -> DocumentResult:
    """An unreadable or malformed input as a document in status ``error``."""
    message = f"{err.file}:{err.line}:{err.column}: {err.message}" if err.line else f"{err.file}: {err.message}"
    return DocumentResult(
        file=err.file,
        index=err.index if err.index is not None else 0,
        line=err.line or 0,
        api_version=None,
        kind=None,
        name=None,
        status="error",
        errors=[
            {
                "type": "InputError",
                "field": "",
                "detail": err.message,
                "badValue": None,
                "message": message,
                "line": err.line,
                "column": err.column,
            }
        ],
    )


def judge_document(doc: Document) -> DocumentResult:
    """Judge one loaded document: a CRD gets the apiserver's verdict, anything else is skipped."""
    api_version, kind, name = _identity(doc)
    result = DocumentResult(doc.file, doc.index, doc.line, api_version, kind, name, "skipped")
    if not is_crd(doc.data):
        if kind == "CustomResourceDefinition":
            result.note = f"apiVersion {api_version!r} is not one of {', '.join(CRD_API_VERSIONS)}"
        else:
            result.note = "not a CustomResourceDefinition"
        return result
    verdict = check_crd_manifest(doc.data)
    findings = [(duplicate_field(p), None) for p in doc.duplicate_keys]
    findings += [(f.error, f.upstream_field) for f in verdict.findings]
    for error, upstream_field in findings:
        entry = error.to_dict()
        pos = doc.position(error.field) if error.field else None
        entry["line"], entry["column"] = pos if pos else (None, None)
        if upstream_field:
            entry["upstreamField"] = upstream_field
        result.errors.append(entry)
    result.warnings = list(verdict.warnings)
    result.status = "invalid" if result.errors else "valid"
    return result


def run(paths: list[str], output: OutputFormat, crd_paths: list[str] | None = None) -> int:
    """Validate every document of ``paths``; return 0 valid, 1 invalid, 2 input errors."""
    results: list[DocumentResult] = []
    for item in load_inputs(paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            results.append(input_error_result(item))
        else:
            results.append(judge_document(item))
    REPORTER_BY_NAME[output.value](results)
    if any(r.status == "error" for r in results):
        return 2
    if any(r.status == "invalid" for r in results):
        return 1
    return 0
