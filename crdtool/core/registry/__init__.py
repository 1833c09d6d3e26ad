"""The apiserver's create path for built-in kinds: one strategy module per resource.

Mirrors kubernetes/kubernetes ``pkg/registry/<group>/<resource>/strategy.go`` (``PrepareForCreate``,
``Validate``, ``WarningsOnCreate``) — and, for Services, the allocation the REST storage does before them.
:data:`crdtool.core.registry.strategies.STRATEGIES` maps (group, kind) to the module; each module has
``prepare_for_create(obj, release) -> None`` (mutates), ``validate(obj, release) -> list[FieldError]`` and
``warnings_on_create(obj, release) -> list[str]``, on the versioned object after decoding and defaulting.
"""
