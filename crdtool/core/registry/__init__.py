"""Built-in kinds' REST strategies and the create path, as kubernetes ``pkg/registry/<group>/<resource>``.

:mod:`crdtool.core.registry.create` runs a built-in object through what kube-apiserver does on ``POST``;
:mod:`crdtool.core.registry.strategies` says which strategy and defaulting module each kind has. Each strategy
module (``<group>/<resource>.py``, mirroring ``strategy.go``: ``PrepareForCreate``, ``Validate``,
``WarningsOnCreate``; for Services also the allocation the REST storage does before them) has
``prepare_for_create(obj, release)``, ``validate(obj, release, version)`` and ``warnings_on_create(obj, release,
version)`` over the versioned object after decoding and defaulting.
"""
