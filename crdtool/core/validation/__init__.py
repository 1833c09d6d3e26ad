"""``apiextensions-apiserver/pkg/apiserver/validation``, ported: OpenAPI value validation of custom resources.

* :mod:`.value_validation` — ``validation.go`` with kube-openapi's ``pkg/validation/validate``:
  types, formats, enum, pattern, bounds, required, nullable, list types;
* :mod:`.compiled_validation` — the same checks compiled once per schema: a yes/no fast path in
  front of the exact validator;
* :mod:`.ratcheting` — ``ratcheting.go``: validation ratcheting on UPDATE (``CRDValidationRatcheting``).
"""
