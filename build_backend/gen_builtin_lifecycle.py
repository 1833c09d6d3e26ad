"""Generate ``crdtool/core/builtin/lifecycle.py`` from k8s.io/api's prerelease-lifecycle data per release.

Usage: ``python build_backend/gen_builtin_lifecycle.py --git-dir /path/to/kubernetes/api.git``
(a bare clone of github.com/kubernetes/api; ``--check`` compares instead of writing).

For each release's tag (``crdtool.core.releases.RELEASES``), every ``<group>/<version>/zz_generated.prerelease-lifecycle.go``
(and core/v1's hand-written ``lifecycle.go``) (``APILifecycleIntroduced``/``Deprecated``/``Removed``/``Replacement`` per type, written by
prerelease-lifecycle-gen from the ``+k8s:prerelease-lifecycle-gen`` tags of ``types.go``) and the group name of
its ``register.go``. ``*List`` types are left out (they are never request bodies).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from crdtool.core.releases import RELEASES  # noqa: E402

OUT = ROOT / "crdtool" / "core" / "builtin" / "lifecycle.py"
_FUNC = re.compile(
    r"func \(in \*(\w+)\) APILifecycle(Introduced|Deprecated|Removed|Replacement)\(\)[^{]*\{\s*return ([^\n]+)\n"
)
_GVK = re.compile(r'Group: "([^"]*)", Version: "([^"]*)", Kind: "([^"]*)"')
_GROUP = re.compile(r'const GroupName = "([^"]*)"|GroupName\s*=\s*"([^"]*)"')


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def read_tag(git_dir: str, tag: str) -> dict[tuple[str, str, str], tuple[object, ...]]:
    out: dict[tuple[str, str, str], tuple[object, ...]] = {}
    per_folder: dict[str, dict[str, dict[str, object]]] = {}
    groups: dict[str, tuple[str, str]] = {}
    files = [f for f in _git(git_dir, "ls-tree", "-r", "--name-only", tag).splitlines()
             if f.endswith(("/zz_generated.prerelease-lifecycle.go", "/lifecycle.go"))]
    for path in sorted(files):
        folder = path.rpartition("/")[0]
        version = folder.rpartition("/")[2]
        register = _git(git_dir, "show", f"{tag}:{folder}/register.go")
        m = _GROUP.search(register)
        group = (m.group(1) or m.group(2) or "") if m else ""
        per_type = per_folder.setdefault(folder, {})
        for kind, what, value in _FUNC.findall(_git(git_dir, "show", f"{tag}:{path}")):
            if kind.endswith("List"):
                continue
            if what == "Replacement":
                r = _GVK.search(value)
                per_type.setdefault(kind, {})[what] = r.groups() if r else None
            else:
                major, minor = (int(x) for x in value.split(","))
                per_type.setdefault(kind, {})[what] = (major, minor)
        groups[folder] = (group, version)
    for folder, per_type in per_folder.items():
        group, version = groups[folder]
        for kind, info in per_type.items():
            out[(group, version, kind)] = (
                info.get("Introduced"), info.get("Deprecated"), info.get("Removed"), info.get("Replacement"),
            )
    return out


def render(git_dir: str) -> str:
    steps: dict[tuple[str, str, str], list[tuple[int, tuple[object, ...]]]] = {}
    for minor, release in sorted(RELEASES.items()):
        for gvk, info in read_tag(git_dir, release.tag).items():
            seen = steps.setdefault(gvk, [])
            if not seen or seen[-1][1] != info:
                seen.append((minor, info))
    lines = [
        '"""k8s.io/api\'s prerelease-lifecycle data per release (generated: build_backend/gen_builtin_lifecycle.py).',
        "",
        "``LIFECYCLE[(group, version, kind)]`` is a tuple of steps ``(first minor, introduced, deprecated, removed,",
        "replacement)``: the data of ``<group>/<version>/zz_generated.prerelease-lifecycle.go`` at the tag of",
        "``crdtool.core.releases.RELEASES`` for that minor and later, until the next step (``None``: no such",
        "function). A kind of a stable group-version has no entry. Tags read: "
        + ", ".join(r.tag for _, r in sorted(RELEASES.items())) + ".",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "Version = tuple[int, int]",
        "GVK = tuple[str, str, str]",
        "",
        "LIFECYCLE: dict[GVK, tuple[tuple[int, Version | None, Version | None, Version | None, GVK | None], ...]] = {",
    ]
    for gvk in sorted(steps):
        body = ", ".join(f"({m}, {info[0]!r}, {info[1]!r}, {info[2]!r}, {info[3]!r})" for m, info in steps[gvk])
        lines.append(f"    {gvk!r}: ({body},),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = render(args.git_dir)
    if args.check:
        return 0 if OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
