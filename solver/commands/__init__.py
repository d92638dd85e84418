"""Subcommands of ``patience``: each module here has ``register(subparsers)``."""
