"""``k8s.io/apiserver/pkg/cel``, ported: what Kubernetes adds to CEL.

The middle of crdtool's three CEL layers (:mod:`crdtool.core.crdcel` → this package →
:mod:`crdtool.core.celgo`):

* :mod:`.library` — ``pkg/cel/library``: the Kubernetes libraries at run time (quantity, URLs,
  regex, lists, IP, CIDR, format, semver) with their runtime costs;
* :mod:`.library_cost` — ``pkg/cel/library/cost.go``: their static cost estimates;
* :mod:`.decltype` — ``pkg/cel/types.go`` and ``pkg/cel/common/schemas.go``: ``DeclType``, the CEL
  types of structural schemas;
* :mod:`.unstructured` — ``pkg/cel/common/values.go``: custom-resource data as CEL values,
  converted lazily; :mod:`.strfmt` — the string formats that conversion parses (kube-openapi
  ``pkg/validation/strfmt``).
"""
