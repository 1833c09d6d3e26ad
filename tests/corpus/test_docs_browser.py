"""``crdtool docs`` pages in a real browser: Debian's ``chromium`` renders the HTML of three real CRDs
(cert-manager v1.21.1 Certificate, Gateway API v1.6.1 HTTPRoute, prometheus-operator v0.93.0
Prometheus) from ``file://``; the rendered DOM (``--dump-dom``, after the page's own script ran) must
have the headings and landmarks, every field of every version's schema (found by walking the CRD here,
not through crdtool's model) and each field's rule messages inside that field's block; chromium's net
log must show no request made by the page (the detector is first shown to catch a page that does ask
for a stylesheet, an image and a script). A screenshot of each page is written for review (to
``$CRDTOOL_SCREENSHOT_DIR`` when set, else the test's temporary directory).

When chromium is absent the tests fail with one line saying so (install it: ``apt-get install -y
chromium``); they are never counted as passed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "crds" / "v1"
PAGES = {
    "certificates.cert-manager.io": "cert-manager__v1.21.1__cert-manager.io_certificates.yaml",
    "httproutes.gateway.networking.k8s.io": "gateway-api__v1.6.1__standard__httproutes.yaml",
    "prometheuses.monitoring.coreos.com": "prometheus-operator__v0.93.0__monitoring.coreos.com_prometheuses.yaml",
}
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps",
    # nothing leaves the machine even if something were asked for: every host name fails to resolve
    "--host-resolver-rules=MAP * ~NOTFOUND",
]


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed, so the browser test did not run (apt-get install -y chromium)", pytrace=False)
    return found


def _run_chromium(tmp: Path, url: str, *extra: str, name: str) -> tuple[str, list[dict[str, Any]]]:
    """``(DOM after load, requests the page made)``; the requests come from the net log: a request chromium
    makes for itself has the initiator "not an origin", one a page makes has the page's origin ("null"
    for file://)."""
    netlog = tmp / f"{name}.netlog.json"
    profile = tmp / "profile"
    out = subprocess.run(
        [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--log-net-log={netlog}", *extra, url],
        capture_output=True, text=True, timeout=180,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    log = json.loads(netlog.read_text(encoding="utf-8"))
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    requests = [
        e["params"] for e in log["events"]
        if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in e.get("params", {})
        and e["params"].get("initiator") != "not an origin"
    ]
    return out.stdout, requests


class _Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: _Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[_Node | str] = []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> Any:
        yield self
        for c in self.children:
            if isinstance(c, _Node):
                yield from c.walk()

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("#document", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Node(tag, {k: v or "" for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in _VOID:
            self.cur = node

    def handle_endtag(self, tag: str) -> None:
        node: _Node | None = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.cur = node.parent

    def handle_data(self, data: str) -> None:
        self.cur.children.append(data)


def _dom(html: str) -> _Node:
    tree = _Tree()
    tree.feed(html)
    return tree.root


def _fields(node: dict[str, Any], prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every field of a schema with its schema node, JSONPath-like (``[*]`` items, ``.*`` map values)."""
    out = []
    for name, child in (node.get("properties") or {}).items():
        path = prefix + (f".{name}" if name.replace("-", "").replace("_", "").replace("$", "").replace("@", "").isalnum() else f"[{json.dumps(name)}]")
        out.append((path, child))
        out.extend(_under(child, path))
    return out


def _under(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
    out = _fields(node, path)
    if isinstance(node.get("items"), dict):
        out.extend(_under(node["items"], path + "[*]"))
    if isinstance(node.get("additionalProperties"), dict):
        out.extend(_under(node["additionalProperties"], path + ".*"))
    return out


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _chromium()
    out = tmp_path_factory.mktemp("docs")
    run = subprocess.run(
        [sys.executable, "-m", "crdtool", "docs", "--out", str(out), *(str(CORPUS / f) for f in PAGES.values())],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return out


def test_the_request_detector_catches_a_page_that_fetches(tmp_path: Path) -> None:
    page = tmp_path / "fetches.html"
    page.write_text(
        '<!DOCTYPE html><html><head><link rel="stylesheet" href="https://example.invalid/x.css"></head>'
        '<body><img src="http://example.invalid/x.png"><script src="https://cdn.example.invalid/a.js"></script></body></html>',
        encoding="utf-8",
    )
    _, requests = _run_chromium(tmp_path, page.as_uri(), "--dump-dom", name="canary")
    assert {r["url"] for r in requests} >= {"https://example.invalid/x.css", "http://example.invalid/x.png"}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_in_chromium(rendered: Path, tmp_path: Path, name: str) -> None:
    crd = yaml.load((CORPUS / PAGES[name]).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    page = rendered / f"{name}.html"
    html, requests = _run_chromium(tmp_path, page.as_uri(), "--dump-dom", name=name)
    assert requests == [], f"the page asked for {[r['url'] for r in requests]}"
    dom = _dom(html)
    nodes = list(dom.walk())
    # headings and landmarks
    (h1,) = [n for n in nodes if n.tag == "h1"]
    assert h1.text().strip() == crd["spec"]["names"]["kind"]
    assert next(n for n in nodes if n.tag == "html").attrs.get("lang") == "en"
    for landmark in ("header", "main", "footer", "nav"):
        assert any(n.tag == landmark for n in nodes), landmark
    h2 = [n.text().strip() for n in nodes if n.tag == "h2"]
    group = crd["spec"]["group"]
    assert h2 == [f"{group}/{v}" for v in _priority([v["name"] for v in crd["spec"]["versions"]])]
    for version in crd["spec"]["versions"]:
        section = next(n for n in nodes if n.tag == "section" and n.attrs.get("id") == version["name"])
        blocks = {n.attrs["data-path"]: n for n in section.walk() if "field" in n.classes()}
        fields = _fields(version["schema"]["openAPIV3Schema"])
        assert sorted(blocks) == sorted(p for p, _ in fields)
        for path, schema in fields:
            block = blocks[path]
            heading = next(n for n in block.walk() if n.tag == "h4")
            assert heading.text() == path
            messages = [n.text() for n in block.walk() if "rule-message" in n.classes()]
            rules = [n.text() for n in block.walk() if "rule-text" in n.classes()]
            for rule in schema.get("x-kubernetes-validations") or []:
                assert rule["rule"] in rules, (path, rule["rule"])
                if rule.get("message"):
                    assert rule["message"] in messages, (path, rule["message"])
    _screenshot(tmp_path, page, name)


def test_index_search_box_filters_offline(rendered: Path, tmp_path: Path) -> None:
    html, requests = _run_chromium(tmp_path, (rendered / "index.html").as_uri() + "#q=httproute", "--dump-dom", name="index")
    assert requests == []
    items = [n for n in _dom(html).walk() if n.tag == "li" and "data-search" in n.attrs]
    assert len(items) == 3
    shown = [n.text().split()[0] for n in items if "hidden" not in n.classes()]
    assert shown == ["HTTPRoute"]
    status = next(n for n in _dom(html).walk() if n.attrs.get("id") == "search-status")
    assert status.text() == "1 of 3 shown"


def _priority(names: list[str]) -> list[str]:
    from crdtool.core.versions import sort_versions

    return sort_versions(names)


def _screenshot(tmp_path: Path, page: Path, name: str) -> None:
    where = Path(os.environ.get("CRDTOOL_SCREENSHOT_DIR") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    shot = where / f"{name}.png"
    subprocess.run(
        [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile-shot'}", "--window-size=1280,1600",
         f"--screenshot={shot}", page.as_uri()],
        capture_output=True, timeout=180, check=True,
    )
    assert shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")
