"""Structural schemas: ``apiextensions-apiserver/pkg/apiserver/schema``.

The model and its validation (:mod:`.structural`), pruning (:mod:`.pruning`), defaulting
(:mod:`.defaulting`), embedded resources' metadata (:mod:`.objectmeta`), field paths in rules
(:mod:`.fieldpath`) and the string formats the apiserver knows (:mod:`.formats`).
"""
