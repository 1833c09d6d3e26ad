"""The command-line layer: parses options, loads files, calls the core, renders."""
