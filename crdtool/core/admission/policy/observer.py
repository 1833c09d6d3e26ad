"""Which policy expressions a request evaluated: a behaviour-neutral hook for expression coverage.

Not upstream's (as :data:`crdtool.core.crdcel.validation.RULE_OBSERVER` for CRD rules): ``crdtool test`` sets
:data:`EXPRESSION_OBSERVER` around a call of :func:`crdtool.core.admission.chain.admit` to learn, for each
ValidatingAdmissionPolicy validation and matchCondition and each MutatingAdmissionPolicy mutation and
matchCondition, whether the request evaluated it and what it gave. The compilers name each expression they
compile (:meth:`ExpressionObserver.compiled`, the manifest path of the expression), ``evaluate_expressions``
(``condition.ForInput``) reports each evaluation (:meth:`ExpressionObserver.evaluated`). Nothing that is
evaluated, decided or reported changes.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Protocol

from crdtool.core.kubecel.admission import PolicyCompilation

__all__ = ["EXPRESSION_OBSERVER", "ExpressionObserver"]


class ExpressionObserver(Protocol):
    """What a coverage tool implements."""

    def compiled(self, kind: str, name: str, expressions: list[tuple[str, PolicyCompilation]]) -> None:
        """A policy compiled: its kind (``ValidatingAdmissionPolicy``, ``MutatingAdmissionPolicy``), name, and
        each observed expression's manifest path (``spec.validations[0].expression``) with its compilation."""

    def evaluated(self, compilation: PolicyCompilation, value: Any, error: str) -> None:
        """An expression evaluated: its value (a CEL value; None on an error) and the error's text ("")."""


EXPRESSION_OBSERVER: ContextVar[ExpressionObserver | None] = ContextVar("crdtool_policy_expression_observer",
                                                                        default=None)
