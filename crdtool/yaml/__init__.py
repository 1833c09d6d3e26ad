"""Kubernetes manifests as text: reading YAML and JSON as kubectl reads them, and editing YAML text in place.

* :mod:`.edit` — the comment-preserving text editor of ``upgrade-manifest`` and ``default --in-place``.
"""
