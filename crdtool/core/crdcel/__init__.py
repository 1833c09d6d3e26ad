"""``apiextensions-apiserver/pkg/apiserver/schema/cel``, ported: a CRD's validation rules.

The top of crdtool's three CEL layers (this package → :mod:`crdtool.core.kubecel` →
:mod:`crdtool.core.celgo`):

* :mod:`.compilation` — ``compilation.go``: compiling every ``x-kubernetes-validations`` rule and
  ``messageExpression`` of a structural schema, with its cost estimate;
* :mod:`.validation` — ``validation.go``: evaluating them on custom resources on create and update
  (transition rules, ``optionalOldSelf``, ratcheting of unchanged values, the cost budget).
"""
