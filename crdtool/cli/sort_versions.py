"""``crdtool sort-versions``: Kubernetes version priority."""

from __future__ import annotations

import sys
from typing import Any

from crdtool.cli.output import OutputFormat
from crdtool.core.versions import crd_version_rows, sort_versions

# Rich (crdtool.cli.report) is imported only where something is rendered with it: sorting
# version arguments is what start-up time is measured on.


def _read_stdin_versions() -> list[str]:
    data = sys.stdin.buffer.read()
    text = data.decode("utf-8", errors="replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _json_rows(crd: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's columns as JSON: ``[{"name", "served", "storage", "deprecated", "kubectlDefault"}]``, priority order."""
    return [
        {"name": r.name, "served": r.served, "storage": r.storage, "deprecated": r.deprecated, "kubectlDefault": r.preferred}
        for r in crd_version_rows(crd)
    ]


def _run_crd(path: str, output: OutputFormat) -> int:
    from crdtool.cli.markup import escape
    from rich.table import Table

    from crdtool.cli.inputs import load_inputs
    from crdtool.yaml.loader import InputError
    from crdtool.cli.report import console, write_json
    from crdtool.core.crd.manifest import is_crd

    err = console(stderr=True)
    crds = []
    for item in load_inputs([path], stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            where = f"{item.file}:{item.line}" if item.line else item.file
            err.print(f"crdtool: {escape(where)}: {escape(item.message)}")
            return 2
        if is_crd(item.data):
            crds.append(item)
    if not crds:
        err.print(f"crdtool: {escape(path)}: no CustomResourceDefinition found")
        return 2
    if output is OutputFormat.json:
        if len(crds) == 1:
            write_json(_json_rows(crds[0].data))
        else:
            write_json({str((c.data.get("metadata") or {}).get("name")): _json_rows(c.data) for c in crds})
        return 0
    out = console()
    for doc in crds:
        name = (doc.data.get("metadata") or {}).get("name")
        table = Table(title=f"{name} ({doc.file}:{doc.line})", title_justify="left")
        for column in ("version", "served", "storage", "deprecated", "default"):
            table.add_column(column)
        for row in crd_version_rows(doc.data):
            table.add_row(
                escape(row.name),
                "yes" if row.served else "no",
                "yes" if row.storage else "no",
                "yes" if row.deprecated else "no",
                "<- kubectl default" if row.preferred else "",
            )
        out.print(table)
    return 0


def run(versions: list[str], crd: str | None, output: OutputFormat) -> int:
    """Print versions highest priority first. Exit 2 on usage or input errors."""
    if crd is not None:
        if versions:
            print("crdtool: give versions or --crd, not both", file=sys.stderr)
            return 2
        return _run_crd(crd, output)
    from_stdin = not versions
    if from_stdin:
        versions = _read_stdin_versions()
    ordered = sort_versions(versions)
    if output is OutputFormat.json:
        from crdtool.cli.report import write_json

        write_json(ordered)
    elif from_stdin:
        # One per line in, one per line out; arguments in, one line out.
        sys.stdout.write("".join(f"{v}\n" for v in ordered))
    else:
        sys.stdout.write(" ".join(ordered) + "\n")
    return 0
