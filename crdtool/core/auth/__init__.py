"""Authorization as the kube-apiserver decides it, offline: the RBAC authorizer over a bundle's roles and bindings
(:mod:`crdtool.core.auth.rbac`), the bootstrap policy's default roles (:mod:`crdtool.core.auth.bootstrappolicy`)
and the authorizer chain in front of them (:mod:`crdtool.core.auth.authorizer`)."""
