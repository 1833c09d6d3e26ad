"""No built-in document of ``../shared/corpus`` and ``../shared/corpus-outside`` is skipped by ``validate``.

"Skipped" remains only for a kind no Kubernetes release defines (a custom resource whose CRD is not among the
inputs): every document of a built-in API group (one of the catalog's or k8s.io/api's lifecycle data) is judged.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from crdtool.core.builtin import catalog, lifecycle

SHARED = Path(__file__).resolve().parents[3] / "shared"


def _builtin_groups() -> set[str]:
    groups = {k.group for minor in range(30, 38) for k in catalog.kinds(minor)}
    return groups | {gvk[0] for gvk in lifecycle.LIFECYCLE}


def test_no_builtin_document_is_skipped() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "crdtool", "validate", str(SHARED / "corpus"), str(SHARED / "corpus-outside"),
         "--output", "json", "--jobs", "2", "--exit-zero"],
        capture_output=True, text=True, timeout=900,
    )
    assert out.returncode == 0, out.stderr
    docs = json.loads(out.stdout)["documents"]
    groups = _builtin_groups()
    builtin = [d for d in docs if isinstance(d.get("apiVersion"), str) and d["apiVersion"].rpartition("/")[0] in groups
               and d.get("kind") != "CustomResourceDefinition"]
    assert len(builtin) >= 100
    assert [(d["file"], d["line"], d["kind"]) for d in builtin if d["status"] == "skipped"] == []
    assert all("apiStatus" in d for d in builtin)
