"""Regenerate ``admissionregistration_policy_cases.json`` from upstream's Go test tables.

Reads kubernetes/kubernetes ``pkg/apis/admissionregistration/validation/validation_test.go`` from the
openshift/microshift mirror (``deps/github.com/openshift/kubernetes/...``) at ``release-4.18`` (v1.31),
``release-4.20`` (v1.33) and ``release-4.22`` (v1.35; ``release-4.21`` and ``release-4.23`` hold the same tables
for these tests), and translates the tables of ``TestValidateValidatingAdmissionPolicy``,
``TestValidateValidatingAdmissionPolicyBinding``, ``TestValidateMutatingAdmissionPolicy`` and
``TestValidateMutatingAdmissionPolicyBinding`` (Go composite literals of the internal types) into JSON objects:
field names as their JSON names, the embedded ``RuleWithOperations`` / ``Rule`` inlined, constants as their
values, ``func() *T { r := T("x"); return &r }()`` and ``ptr.To(x)`` as ``x``. Not a test module: run it by hand::

    python tests/core/apis/data/port_policy_cases.py /work/.mirror/openshift+microshift/repo
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

_TOKEN = re.compile(r'\s*(?:(//[^\n]*)|(`[^`]*`)|("(?:[^"\\]|\\.)*")|(\d+)'
                    r'|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)|(\[\])|(:=)|(.))', re.S)
_CONSTANTS: dict[str, Any] = {
    "admissionregistration.DenyAction": "Deny", "admissionregistration.AllowAction": "Allow",
    "admissionregistration.Deny": "Deny", "admissionregistration.Warn": "Warn", "admissionregistration.Audit": "Audit",
    "admissionregistration.IfNeededReinvocationPolicy": "IfNeeded",
    "admissionregistration.NeverReinvocationPolicy": "Never",
    "admissionregistration.PatchTypeApplyConfiguration": "ApplyConfiguration",
    "admissionregistration.PatchTypeJSONPatch": "JSONPatch",
    "admissionregistration.Fail": "Fail", "admissionregistration.Ignore": "Ignore",
    "admissionregistration.Exact": "Exact", "admissionregistration.Equivalent": "Equivalent",
    "admissionregistration.Create": "CREATE", "admissionregistration.Update": "UPDATE",
    "admissionregistration.Delete": "DELETE", "admissionregistration.Connect": "CONNECT",
    "admissionregistration.OperationAll": "*",
    "metav1.LabelSelectorOpIn": "In", "metav1.LabelSelectorOpNotIn": "NotIn", "metav1.LabelSelectorOpExists": "Exists",
    "applyConfigurationPatchType": "ApplyConfiguration", "true": True, "false": False, "nil": None,
}
_JSON_NAMES = {"ObjectMeta": "metadata", "APIVersion": "apiVersion", "APIVersions": "apiVersions",
               "APIGroups": "apiGroups", "JSONPatch": "jsonPatch"}
_EMBEDDED = {"RuleWithOperations", "Rule"}
_KINDS = ("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy",
          "MutatingAdmissionPolicyBinding")
_BRANCHES = ("release-4.18", "release-4.20", "release-4.22")
_TEST_FILE = "deps/github.com/openshift/kubernetes/pkg/apis/admissionregistration/validation/validation_test.go"


def _tokens(src: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    pos = 0
    while src[pos:].strip():
        match = _TOKEN.match(src, pos)
        if match is None:
            raise SyntaxError(src[pos:pos + 50])
        pos = match.end()
        comment, raw, string, number, ident, slice_, assign, char = match.groups()
        if comment:
            continue
        if raw is not None:
            out.append(("str", raw[1:-1]))
        elif string is not None:
            out.append(("str", json.loads(string)))
        elif number is not None:
            out.append(("num", int(number)))
        elif ident is not None:
            out.append(("id", ident))
        elif slice_:
            out.append(("op", "[]"))
        elif assign:
            out.append(("op", ":="))
        elif char and char.strip():
            out.append(("op", char))
    return out


class _Parser:
    """The subset of Go expressions the tables use."""

    def __init__(self, tokens: list[tuple[str, Any]]) -> None:
        self.tokens, self.pos = tokens, 0

    def peek(self, k: int = 0) -> tuple[str | None, Any]:
        return self.tokens[self.pos + k] if self.pos + k < len(self.tokens) else (None, None)

    def next(self) -> tuple[str, Any]:
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expect(self, value: str) -> None:
        got = self.next()
        if got[1] != value:
            raise SyntaxError(f"expected {value}, got {got}")

    def type_(self) -> tuple[Any, ...]:
        value = self.peek()[1]
        if value == "[]":
            self.next()
            return ("slice", self.type_())
        if value == "*":
            self.next()
            return self.type_()
        if value == "map":
            self.next()
            self.expect("[")
            key = self.type_()
            self.expect("]")
            return ("map", key, self.type_())
        if value == "struct":  # the table's anonymous struct type
            self.next()
            self.expect("{")
            depth = 1
            while depth:
                depth += {"{": 1, "}": -1}.get(self.next()[1], 0)
            return ("struct",)
        self.next()
        return ("named", value)

    def expr(self) -> Any:
        kind, value = self.peek()
        if value == "&":
            self.next()
            return self.expr()
        if kind in ("str", "num"):
            self.next()
            return value
        if value == "func" and self.peek(1)[1] == "(":
            return self._func_literal()
        if value == "ptr.To":
            self.next()
            if self.peek()[1] == "[":
                self.next()
                self.type_()
                self.expect("]")
            self.expect("(")
            out = self.expr()
            self.expect(")")
            return out
        if value == "get65MatchConditions":
            self.next()
            self.expect("(")
            self.expect(")")
            return [{"name": f"test{i}", "expression": "true"} for i in range(65)]
        if value in ("[]", "map"):
            return self.composite(self.type_())
        if kind == "id":
            if self.peek(1)[1] == "{":
                return self.composite(self.type_())
            if self.peek(1)[1] == "(":  # a conversion: T(x)
                self.next()
                self.expect("(")
                out = self.expr()
                self.expect(")")
                return out
            if value in _CONSTANTS:
                self.next()
                return _CONSTANTS[value]
            raise SyntaxError(f"unknown identifier {value}")
        if value == "{":
            return self.composite(None)
        raise SyntaxError(f"unexpected {value}")

    def _func_literal(self) -> Any:
        """``func() *T { r := x; return &r }()``: x."""
        self.next()
        self.expect("(")
        self.expect(")")
        self.type_()
        self.expect("{")
        local: dict[str, Any] = {}
        result = None
        while self.peek()[1] != "}":
            _, word = self.next()
            if self.peek()[1] == ":=":
                self.next()
                local[word] = self.expr()
            elif word == "return":
                if self.peek()[1] == "&":
                    self.next()
                if self.peek()[0] == "id" and self.peek()[1] in local:
                    result = local[self.next()[1]]
                else:
                    result = self.expr()
        self.expect("}")
        self.expect("(")
        self.expect(")")
        return result

    def composite(self, type_: tuple[Any, ...] | None) -> Any:
        self.expect("{")
        elements: list[tuple[tuple[str, Any] | None, Any]] = []
        while self.peek()[1] != "}":
            if self.peek()[0] == "id" and self.peek(1)[1] == ":":
                name = self.next()[1]
                self.next()
                elements.append((("field", name), self.expr()))
            else:
                value = self.expr()
                if self.peek()[1] == ":":
                    self.next()
                    elements.append((("key", value), self.expr()))
                else:
                    elements.append((None, value))
            if self.peek()[1] == ",":
                self.next()
        self.expect("}")
        if (type_ is not None and type_[0] == "slice") or (type_ is None and elements and elements[0][0] is None):
            return [value for _, value in elements]
        out: dict[Any, Any] = {}
        for key, value in elements:
            if key is None:
                raise SyntaxError("a positional element in a struct")
            if key[0] == "key":
                out[key[1]] = value
            elif key[1] in _EMBEDDED and isinstance(value, dict):
                out.update(value)
            else:
                out[_JSON_NAMES.get(key[1], key[1][0].lower() + key[1][1:])] = value
        return out


def table(src: str, kind: str) -> list[dict[str, Any]] | None:
    """The cases of ``TestValidate<kind>`` in ``src`` (None when the file has no such test)."""
    match = re.search(r"^func TestValidate%s\(t \*testing.T\) \{\n(.*?)^\}\n" % kind, src, re.S | re.M)
    if match is None:
        return None
    tokens = _tokens(match.group(1))
    start = next(i for i in range(len(tokens) - 1) if tokens[i] == ("id", "tests") and tokens[i + 1] == ("op", ":="))
    cases = _Parser(tokens[start + 2:]).expr()
    return [{"name": c["name"], "object": c.get("config"), "expectedError": c.get("expectedError", "")} for c in cases]


def main(mirror: str) -> None:
    out: dict[str, dict[str, Any]] = {}
    for branch in _BRANCHES:
        src = subprocess.run(["git", "-C", mirror, "show", f"{branch}:{_TEST_FILE}"], check=True,
                             capture_output=True, text=True).stdout
        out[branch] = {kind: cases for kind in _KINDS if (cases := table(src, kind)) is not None}
    lines = ["{"]
    for bi, (branch, kinds) in enumerate(out.items()):
        lines.append(f' "{branch}": {{')
        for ki, (kind, cases) in enumerate(kinds.items()):
            lines.append(f'  "{kind}": [')
            lines.extend("   " + json.dumps(c, separators=(",", ":")) + ("," if ci < len(cases) - 1 else "")
                         for ci, c in enumerate(cases))
            lines.append("  ]" + ("," if ki < len(kinds) - 1 else ""))
        lines.append(" }" + ("," if bi < len(out) - 1 else ""))
    lines.append("}")
    (Path(__file__).parent / "admissionregistration_policy_cases.json").write_text("\n".join(lines) + "\n",
                                                                                  encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
