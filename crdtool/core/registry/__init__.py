"""Built-in kinds' REST strategies and the create path, as kubernetes ``pkg/registry/<group>/<resource>``.

:mod:`crdtool.core.registry.create` runs a built-in object through what kube-apiserver does on ``POST``;
:mod:`crdtool.core.registry.strategies` says which strategy and defaulting module each kind has.
"""
