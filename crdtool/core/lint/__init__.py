"""``crdtool lint``'s core: what the apiserver does not reject but will hurt, and CEL costs explained.

:mod:`crdtool.core.lint.cost` explains the CEL cost budget (per rule, per schema, the sizes it
assumed, the bounds that fix it); :mod:`crdtool.core.lint.checks` checks a CRD against the
Kubernetes API conventions; :mod:`crdtool.core.lint.codes` holds the codes, their rationale and
links. No upstream counterpart (the costs are the apiserver's; the checks are conventions).
"""
