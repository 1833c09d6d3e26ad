"""``crdtool schema``: export each CRD version's structural schema as JSON Schema (draft 2020-12).

The conversion is :mod:`crdtool.core.json_schema`; this module loads
the ``--crd`` files (every CRD document in them), checks each CRD as the
apiserver checks a create (an invalid CRD has no schema the apiserver would
serve: exit 2, as ``fuzz-roundtrip`` does), and writes the schemas:

* without ``-o``: the one schema on stdout (several: a usage error naming
  them; pick one with ``--version`` or write them all with ``--output-dir DIR``);
* ``--output-dir DIR``: ``DIR/{kind}_{version}.json`` for each (the kind in lower case,
  the naming of openapi2jsonschema and the CRDs catalogs used by
  yaml-language-server and kubeconform), written atomically; one line per file
  on stderr.

Exit codes: 0 written, 2 usage or input errors (no CRD, an invalid CRD, an
unknown ``--version``, two CRDs giving the same file name, a write error).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from crdtool.cli.report import console


class _UsageError(Exception):
    """One line for stderr, exit 2."""


def run(
    crd_paths: list[str], *, version: str | None, output_dir: str | None, strict: bool, kubernetes_version: str | None = None
) -> int:
    """Export the schemas of every CRD in ``crd_paths`` (as ``kubernetes_version``'s apiserver serves them); return
    the exit status."""
    err = console(stderr=True)
    try:
        exported = _export(crd_paths, version=version, strict=strict, kubernetes_version=kubernetes_version)
        if output_dir is None:
            if len(exported) != 1:
                listed = ", ".join(e.file_name for _, e in exported)
                raise _UsageError(
                    f"{len(exported)} schemas ({listed}): pick one with --version, or write them all with --output-dir DIR"
                )
            from crdtool.cli.reporters import write_text

            write_text(sys.stdout, _dumps(exported[0][1].schema))
            return 0
        _write_all(exported, output_dir, err)
    except _UsageError as exc:
        err.print(f"crdtool schema: {exc}", markup=False)
        return 2
    return 0


def _export(
    crd_paths: list[str], *, version: str | None, strict: bool, kubernetes_version: str | None = None
) -> list[tuple[str, Any]]:
    """``[(where, ExportedSchema)]`` for every CRD document of ``crd_paths``."""
    from crdtool.cli.inputs import load_inputs
    from crdtool.yaml.loader import InputError
    from crdtool.core.crd.manifest import check_crd_manifest, is_crd
    from crdtool.core.json_schema import crd_json_schemas

    out: list[tuple[str, Any]] = []
    found = 0
    for item in load_inputs(crd_paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            raise _UsageError(str(item))
        if not is_crd(item.data):
            continue
        found += 1
        where = f"{item.file}:{item.line}"
        verdict = check_crd_manifest(item.data, storage=False, kubernetes_version=kubernetes_version)
        if verdict.findings:
            error = verdict.findings[0].error
            pos = item.position(error.field) if error.field else None
            line = pos[0] if pos else item.line
            raise _UsageError(f"{item.file}:{line}: the CRD is invalid: {error} (crdtool validate {item.file} lists "
                              "every error)")
        try:
            schemas = crd_json_schemas(item.data, version=version, strict=strict, kubernetes_version=kubernetes_version)
        except ValueError as exc:
            raise _UsageError(f"{where}: {exc}") from None
        out.extend((where, e) for e in schemas)
    if not found:
        raise _UsageError(f"{', '.join(crd_paths)}: no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found")
    return out


def _dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _write_all(exported: list[tuple[str, Any]], output_dir: str, err: Any) -> None:
    from crdtool.cli.atomic import atomic_write_text

    names: dict[str, str] = {}
    for where, e in exported:
        if e.file_name in names:
            raise _UsageError(f"{e.file_name}: both {names[e.file_name]} and {where} ({e.group}) give this file; "
                              "export them into different directories")
        names[e.file_name] = f"{where} ({e.group})"
    try:
        os.makedirs(output_dir, exist_ok=True)
    except OSError as exc:
        raise _UsageError(f"{output_dir}: cannot create the directory: {exc.strerror or exc}") from None
    for _, e in exported:
        path = os.path.join(output_dir, e.file_name)
        try:
            atomic_write_text(path, _dumps(e.schema))
        except OSError as exc:
            raise _UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
        err.print(f"wrote {path}", markup=False)
