"""Built-in kinds' native rules, a folder per API group as kubernetes ``pkg/apis/<group>``.

``crdtool.core.apis.<group>.defaults`` mirrors ``pkg/apis/<group>/<version>/defaults.go`` (and the generated
``zz_generated.defaults.go``); ``crdtool.core.apis.<group>.validation`` mirrors ``pkg/apis/<group>/validation``.
The create path (:mod:`crdtool.core.registry.create`) finds them through :mod:`crdtool.core.registry.strategies`.
Group folders use upstream's names: ``core`` for the core group, ``rbac`` for ``rbac.authorization.k8s.io``.
"""
