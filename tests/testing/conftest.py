"""The suites under ``suites/`` are run by the tests beside them (which count and check them), not collected one
by one by the crdtool pytest plugin."""

collect_ignore_glob = ["suites/*"]
