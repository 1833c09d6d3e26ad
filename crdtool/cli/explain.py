"""``crdtool explain``: what ``kubectl explain RESOURCE.FIELD`` prints, offline, from a CRD file or for a
built-in kind of a Kubernetes release (``--kubernetes-version``; any resource no ``--crd`` file defines).

``RESOURCE[.FIELD...]`` is split as kubectl splits it (the resource, then the field path); the resource
is matched against the CRDs of the ``--crd`` files by plural, singular, short name or kind
(:func:`crdtool.docs.explain.matches_resource`), the version is ``--api-version``'s or the preferred
one, and the text is :func:`crdtool.docs.explain.explain_crd`'s: kubectl's layout
(``pkg/explain/v2/templates/plaintext.tmpl``) plus the field's DEFAULT and RULES (``--no-extras``
leaves them out). ``-o json`` gives the same text with what it was made from.

Exit codes: 0 explained, 2 usage or input errors (no such resource or field, an unreadable file).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def run(
    target: str, crd_paths: list[str], *, api_version: str | None, recursive: bool, extras: bool, output: str = "text",
    kubernetes_version: str = "1.37",
) -> int:
    """Explain ``target`` (``RESOURCE[.FIELD...]``) from the CRDs of ``crd_paths``, else from the built-in kinds
    of ``kubernetes_version``; return the exit status."""
    from crdtool.cli.inputs import load_inputs
    from crdtool.core.crd.manifest import is_crd
    from crdtool.docs.explain import ExplainError, explain_crd, matches_resource
    from crdtool.yaml.loader import InputError

    resource, *field_path = target.split(".")
    if not resource or any(not f for f in field_path):
        return _fail(f"invalid resource or field path {target!r}: use RESOURCE[.FIELD...], e.g. certificates.spec.secretName")
    group = api_version.rpartition("/")[0] if api_version else ""
    found = None
    for item in load_inputs(crd_paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            return _fail(str(item))
        if not is_crd(item.data) or not matches_resource(item.data, resource):
            continue
        if group and item.data.get("spec", {}).get("group") != group:
            continue
        found = item
        break
    if found is None:
        return _builtin(kubernetes_version, resource, field_path, api_version, recursive, extras, output)
    try:
        text = explain_crd(found.data, field_path, api_version=api_version, recursive=recursive, extras=extras)
    except ExplainError as exc:
        return _fail(str(exc), prefix="error: ")
    except ValueError as exc:
        return _fail(f"{found.file}:{found.line}: {exc}")
    if output == "json":
        spec = found.data.get("spec", {})
        document: dict[str, Any] = {
            "crd": {"name": found.data.get("metadata", {}).get("name"), "file": found.file, "line": found.line},
            "group": spec.get("group"), "version": _header(text, "VERSION"),
            "kind": spec.get("names", {}).get("kind"), "fieldPath": field_path, "recursive": recursive, "text": text,
        }
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(text)
    return 0


def _builtin(release: str, resource: str, field_path: list[str], api_version: str | None, recursive: bool, extras: bool,
             output: str) -> int:
    from crdtool.docs.explain import ExplainError, explain_builtin

    try:
        text = explain_builtin(release, resource, field_path, api_version=api_version, recursive=recursive, extras=extras)
    except ExplainError as exc:
        return _fail(str(exc), prefix="error: ")
    if output == "json":
        document = {"crd": None, "kubernetesVersion": release, "group": _header(text, "GROUP"),
                    "version": _header(text, "VERSION"), "kind": _header(text, "KIND"), "fieldPath": field_path,
                    "recursive": recursive, "text": text}
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(text)
    return 0


def _header(text: str, name: str) -> str:
    for line in text.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    return ""


def _fail(message: str, prefix: str = "crdtool explain: ") -> int:
    print(f"{prefix}{message}", file=sys.stderr)
    return 2
