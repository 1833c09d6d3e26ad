"""k8s.io/apiserver v0.37.0-beta.0 ``pkg/cel/common/values_test.go`` TestListAdd, UnstructuredToVal runs.

Data: tests/core/cel_upstream/eval_k8s_list_add.yaml (60 cases, hand-transcribed; see its header). The harness
is the test's: ``cel.NewEnv(cel.Variable(x|y|z|w, cel.DynType), cel.StdLib())``, ``env.Program(ast)`` without
``OptOptimize``, ``prg.Eval`` on ``common.UnstructuredToVal(data, schema)`` of each variable; the result must be
``true``, or ``err.Error()`` the wanted text. Release 1.37 runs against upstream's own expectations; release 1.36
(``valuesunstructured.go@v0.36.3``, before the list rewrite) against the derived ones (``want_1_36``).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.celgo.env import Environment, compile_expression
from crdtool.core.celgo.functions import runtime
from crdtool.core.celgo.interpreter import plan_program
from crdtool.core.kubecel.unstructured import unstructured_to_val
from crdtool.core.releases import RELEASES
from crdtool.core.schema.structural import new_structural
from tests.core.celgo.upstream import load

DOC = load("eval_k8s_list_add.yaml")
CASES = DOC["cases"]
SCHEMA = new_structural(DOC["schema"])


def evaluate(expr: str, minor: int) -> dict[str, Any]:
    cel_go = RELEASES[minor].cel_go
    env = Environment(libraries=("stdlib",), validators=(), cel_go=cel_go)
    compiled = compile_expression(expr, {k: T.DYN for k in DOC["variables"]}, env=env)
    assert compiled.checked is not None, compiled.error
    program = plan_program(compiled.checked, runtime(("stdlib",), cel_go), optimize=False,
                           presence_test_has_cost=True)
    activation = {k: unstructured_to_val(v, SCHEMA, minor) for k, v in DOC["variables"].items()}
    out = program.eval(activation)
    if type(out) is V.Err:
        return {"error": out.msg}
    return {"value": out}


def test_transcription() -> None:
    assert DOC["upstream"]["ref"] == "v0.37.0-beta.0"
    assert len(CASES) == 60


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_list_add_1_37(case: dict[str, Any]) -> None:
    assert evaluate(case["expr"], 37) == case["want"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_list_add_1_36(case: dict[str, Any]) -> None:
    assert evaluate(case["expr"], 36) == case["want_1_36"]
