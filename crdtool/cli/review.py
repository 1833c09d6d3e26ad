"""``crdtool review --crd CRD.yaml REQUEST.json RESPONSE.json``: what the apiserver makes of a webhook's answer.

REQUEST.json is the ConversionReview the apiserver sent (v1 or v1beta1; JSON or YAML), RESPONSE.json
the body the webhook answered (read as raw JSON, decoded as the apiserver's webhook client decodes
it). The answer is judged by :func:`crdtool.core.conversion_review.convert_from_response` (the
objects of the request, one object or, for several, a list of the CRD's ``listKind`` at the desired
version, as the apiserver's list conversion holds them), then each converted object goes through
:func:`crdtool.core.customresource.coerce_converted` at the desired version (pruning, metadata
re-encoding; no defaulting, as upstream). The result is the objects a client would get, or the error
a ``kubectl`` user would see (``Error from server: conversion webhook for ...``).

Exit codes: 0 the apiserver accepts the answer, 1 it fails the request, 2 usage or input errors (files
unreadable, REQUEST.json not a ConversionReview request, versions the CRD does not have).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from crdtool.cli.markup import escape

from crdtool.cli.report import OutputFormat, console, write_json


class _UsageError(Exception):
    """A one-line ``file: message`` problem with the inputs: exit 2."""


def run(
    crd: str, request_path: str, response_path: str, *, output: OutputFormat, kubernetes_version: str | None = None
) -> int:
    """Judge RESPONSE against REQUEST for the CRD in ``crd``; return the exit code."""
    from crdtool.loading import UsageError, load_crd
    from crdtool.core.conversion_review import ConversionError, convert_from_response
    from crdtool.core.customresource import CustomResourceError, coerce_converted, prepare_crd

    err = console(stderr=True)
    try:
        try:
            crd_doc = load_crd(crd, kubernetes_version=kubernetes_version)
        except UsageError as exc:
            raise _UsageError(str(exc)) from None
        prepared = prepare_crd(crd_doc, kubernetes_version)
        review_version, uid, desired, objects = _read_request(request_path)
        body = _read_bytes(response_path)
        _check_versions(prepared, desired, objects, request_path)
    except (_UsageError, CustomResourceError) as exc:
        err.print(f"crdtool: {escape(str(exc))}")
        return 2

    subject: Any
    if len(objects) == 1:
        subject = objects[0]
    else:
        subject = {"apiVersion": desired, "kind": _list_kind(prepared), "items": objects}
    version = desired.partition("/")[2]
    error: ConversionError | CustomResourceError | None = None
    converted: list[dict[str, Any]] = []
    pruned: list[list[str]] = []
    try:
        result = convert_from_response(subject, desired, review_version, uid, body)
        items = result["items"] if len(objects) != 1 else [result]
        for item in items:
            out, paths = coerce_converted(item, prepared, version)
            converted.append(out)
            pruned.append(paths)
    except (ConversionError, CustomResourceError) as exc:
        error = exc

    if output is OutputFormat.json:
        write_json(_json_report(review_version, uid, desired, error, converted, pruned))
    else:
        _text_report(error, converted, pruned)
    return 1 if error is not None else 0


def _read_bytes(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise _UsageError(f"{path}: {exc.strerror or exc}") from None


def _read_request(path: str) -> tuple[str, str, str, list[dict[str, Any]]]:
    """``(review version, uid, desiredAPIVersion, objects)`` of the ConversionReview request in ``path``."""
    from crdtool.core.conversion_review import REVIEW_V1, REVIEW_V1BETA1

    raw = _read_bytes(path)
    try:
        doc = json.loads(raw)
    except ValueError:
        import yaml

        try:
            doc = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{path}:{mark.line + 1}" if mark is not None else path
            raise _UsageError(f"{where}: neither JSON nor YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(doc, dict) or doc.get("kind") != "ConversionReview":
        raise _UsageError(f"{path}: not a ConversionReview (kind: ConversionReview)")
    review_version = doc.get("apiVersion")
    if review_version not in (REVIEW_V1, REVIEW_V1BETA1):
        raise _UsageError(f"{path}: apiVersion must be {REVIEW_V1} or {REVIEW_V1BETA1}, not {review_version!r}")
    request = doc.get("request")
    if not isinstance(request, dict):
        raise _UsageError(f"{path}: the ConversionReview has no request")
    uid, desired, objects = request.get("uid"), request.get("desiredAPIVersion"), request.get("objects")
    if not isinstance(uid, str) or not isinstance(desired, str) or not desired:
        raise _UsageError(f"{path}: request.uid and request.desiredAPIVersion must be strings")
    if not isinstance(objects, list) or not objects or not all(isinstance(o, dict) for o in objects):
        raise _UsageError(f"{path}: request.objects must be a non-empty list of objects")
    return str(review_version), uid, desired, objects


def _check_versions(prepared: Any, desired: str, objects: list[dict[str, Any]], path: str) -> None:
    """``crConverter.ConvertToVersion``'s checks: the request must name versions of the CRD."""
    valid = {f"{prepared.group}/{v.name}" for v in prepared.versions}
    if desired not in valid:
        raise _UsageError(f"{path}: request to convert CR to an invalid group/version: {desired}")
    for i, obj in enumerate(objects):
        api_version = obj.get("apiVersion")
        if api_version not in valid:
            raise _UsageError(f"{path}: request.objects[{i}]: request to convert CR from an invalid group/version: {api_version}")
        if obj.get("kind") != prepared.kind:
            raise _UsageError(f"{path}: request.objects[{i}]: kind {obj.get('kind')!r} is not the CRD's kind {prepared.kind!r}")


def _list_kind(prepared: Any) -> str:
    names = (prepared.internal.get("spec") or {}).get("names") or {}
    list_kind = names.get("listKind")
    return list_kind if isinstance(list_kind, str) and list_kind else prepared.kind + "List"


def _json_report(
    review_version: str, uid: str, desired: str, error: Any, converted: list[dict[str, Any]], pruned: list[list[str]]
) -> dict[str, Any]:
    return {
        "ok": error is None,
        "reviewVersion": review_version,
        "uid": uid,
        "desiredAPIVersion": desired,
        "error": str(error) if error is not None else None,
        "failureType": getattr(error, "failure_type", None) or None,
        "kubectl": f"Error from server: {error}" if error is not None else None,
        "objects": converted,
        "pruned": pruned,
    }


def _text_report(error: Any, converted: list[dict[str, Any]], pruned: list[list[str]]) -> None:
    import yaml

    out = console()
    err = console(stderr=True)
    if error is not None:
        err.print("[bold red]the apiserver would fail the request[/bold red]; kubectl shows:")
        out.print(f"Error from server: {error}", markup=False, highlight=False)
        return
    for i, paths in enumerate(pruned):
        for p in paths:
            err.print(f"object {i}: pruned {escape(p)} (not in the target version's schema)")
    text = "---\n".join(
        yaml.safe_dump(obj, sort_keys=False, allow_unicode=True, default_flow_style=False) for obj in converted
    )
    out.print(text.rstrip("\n"), markup=False, highlight=False)
