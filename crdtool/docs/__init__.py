"""API references made from CRDs: ``crdtool docs`` (HTML and Markdown pages) and ``crdtool explain``
(kubectl explain's answer, offline).

Outside the core: it renders, through Jinja2 templates and markdown-it-py (imported only here), what
the core knows of a CRD -- its schema, defaults, the rules in words
(:mod:`crdtool.core.crdcel.idioms`) and the changes between versions
(:func:`crdtool.core.crd.compare.compare_versions`).
"""
