"""``--output junit``: JUnit XML, one ``<testcase>`` per checked document (or version pair).

The de-facto schema CI servers read (Jenkins' and GitLab's JUnit readers,
``junitparser``): ``<testsuites><testsuite name tests failures errors skipped>``
with ``<testcase classname name file line>``; an error-level finding becomes
a ``<failure message type>`` carrying every message of the case, an unreadable
input an ``<error>``, an unchecked document ``<skipped message>``; warnings go
to ``<system-out>``. Built with the standard library's ElementTree.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TextIO

from crdtool.cli.reporters.base import Case, CheckRun, Finding, write_text

# Characters XML 1.0 cannot carry (control characters other than tab, LF, CR; surrogates; U+FFFE/U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` with characters XML cannot hold shown as ``\\xNN`` escapes."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _where(f: Finding) -> str:
    if f.line:
        return f"{f.file}:{f.line}:{f.column}" if f.column else f"{f.file}:{f.line}"
    return f.file


def _testcase(case: Case, suite: str) -> ET.Element:
    el = ET.Element("testcase", {"classname": _xml_text(case.file), "name": _xml_text(case.name), "file": _xml_text(case.file)})
    if case.line:
        el.set("line", str(case.line))
    errors = [f for f in case.findings if f.level == "error"]
    others = [f for f in case.findings if f.level != "error"]
    if case.outcome in ("failed", "error") and errors:
        tag = "error" if case.outcome == "error" else "failure"
        child = ET.SubElement(el, tag, {"message": _xml_text(errors[0].message), "type": errors[0].rule})
        child.text = _xml_text("\n".join(f"{_where(f)}: {f.rule}: {f.message}" for f in errors))
    elif case.outcome == "skipped":
        ET.SubElement(el, "skipped", {"message": _xml_text(case.note or "not checked")})
    if others:
        out = ET.SubElement(el, "system-out")
        out.text = _xml_text("\n".join(f"{_where(f)}: {f.level}: {f.message}" for f in others))
    return el


def render(run: CheckRun) -> str:
    """The XML document as text (UTF-8 declaration, indented)."""
    suite_name = f"crdtool {run.command}"
    cases = run.cases
    counts = {
        "tests": len(cases),
        "failures": sum(c.outcome == "failed" for c in cases),
        "errors": sum(c.outcome == "error" for c in cases),
        "skipped": sum(c.outcome == "skipped" for c in cases),
    }
    root = ET.Element("testsuites", {"name": suite_name, **{k: str(v) for k, v in counts.items()}})
    suite = ET.SubElement(root, "testsuite", {"name": suite_name, **{k: str(v) for k, v in counts.items()}})
    for case in cases:
        suite.append(_testcase(case, suite_name))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def report(run: CheckRun, stream: TextIO) -> None:
    write_text(stream, render(run))
