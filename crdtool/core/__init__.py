"""The Kubernetes semantics: pure functions on plain dicts, one concept per module.

Nothing in this package prints, exits, reads files or looks at the terminal.
"""
