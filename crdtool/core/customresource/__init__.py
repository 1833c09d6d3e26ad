"""Custom resources as kube-apiserver handles them: ``apiextensions-apiserver/pkg/registry/customresource``.

* :mod:`.create` — decoding (pruning, defaulting), the create strategy and validation;
* :mod:`.update` — the update strategy and validation, with ratcheting.

The public names are importable from :mod:`crdtool`.
"""
