"""cel-go checker/checker_test.go ``TestCheck``, every case, through crdtool's checker port.

Data: tests/core/cel_upstream/checker_celgo.yaml (transcribed by Go from the
upstream table; harness described in its README). Expected error texts,
printed checked trees and result types are upstream's.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo.ast import format_issues
from crdtool.core.celgo.checker import check
from crdtool.core.celgo.decls import FunctionDecl, OverloadDecl, _type_params, functions
from crdtool.core.celgo.parser import ParserOptions, parse
from tests.core.celgo.debug import debug_string, semantic
from tests.core.celgo.upstream import ProtoProvider, case_id, load, squash

CASES = load("checker_celgo.yaml")["cases"]


def _functions(decls: list[dict[str, Any]]) -> dict[str, FunctionDecl]:
    out = dict(functions(("stdlib",)))
    for fn in decls:
        existing = list(out[fn["name"]].overloads) if fn["name"] in out else []
        seen = {o.id for o in existing}
        for ov in fn["overloads"]:
            if ov["id"] in seen:
                continue
            args = tuple(T.parse_type(a) for a in ov["args"])
            result = T.parse_type(ov["result"])
            existing.append(OverloadDecl(ov["id"], ov["member"], args, result, _type_params((*args, result))))
        out[fn["name"]] = FunctionDecl(fn["name"], tuple(existing))
    return out


def _run(case: dict[str, Any]) -> tuple[Any, str]:
    opts = case.get("options") or {}
    env = case.get("env") or {}
    parser_opts = ParserOptions(
        enable_optional_syntax=bool(opts.get("optional_syntax")),
        extended_macros=False,
        all_macros=True,  # parser.NewParser(parser.Macros(parser.AllMacros...))
        enable_variadic_operator_asts=bool(opts.get("variadic_operator_asts")),
    )
    parsed = parse(case["expr"], parser_opts)
    assert parsed.expr is not None, parsed.error_text()
    variables = {name: T.parse_type(t) for name, t in (env.get("vars") or {}).items()}
    checked = check(
        parsed.expr,
        parsed.info,
        variables,
        ProtoProvider(),
        container=case.get("container") or "",
        cross_type_numeric_comparisons=bool(opts.get("cross_type_numeric_comparisons")),
        function_decls=_functions(env.get("functions") or []),
    )
    errors = format_issues(checked.issues, checked.info, checked.total_errors) if checked.issues else ""
    return checked, errors


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_check(case: dict[str, Any]) -> None:
    checked, errors = _run(case)
    assert squash(errors) == squash(case.get("error"))
    if case.get("out"):
        assert squash(debug_string(checked.expr, semantic(checked))) == squash(case["out"])
    if not case.get("error") and case.get("out_type"):
        assert T.is_equivalent_type(checked.output_type(), T.parse_type(case["out_type"]))
