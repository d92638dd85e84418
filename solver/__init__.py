"""patience-solver: decides whether a deal of a patience can be won, and proves it.

``PATIENCE_CORE=python`` in the environment makes the compiled core absent: its extension
modules (``solver/**/*.so``, built by ``pip install`` where a C compiler exists) do not import,
exactly as on a machine without a compiler, so everything runs on the pure-Python positions: a
one-source module (a ``.py`` compiled beside itself, ``solver/families/README.md``) imports from
its source, interpreted; a ``.pyx`` module is missing.  The second CI leg runs the tests so
(``.ci/run``); child processes inherit the switch.
"""

from __future__ import annotations

import os

if os.environ.get("PATIENCE_CORE") == "python":
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import sys
    from collections.abc import Sequence
    from types import ModuleType

    class _NoExtensions(importlib.abc.MetaPathFinder):
        """Refuses this package's extension modules, as an import of one that is not built fails;
        a one-source module is found as its source instead (as where it was never compiled)."""

        def find_spec(self, name: str, path: Sequence[str] | None,
                      target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
            if name.startswith(__name__ + "."):
                spec = importlib.machinery.PathFinder.find_spec(name, path)
                if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
                    source = os.path.join(os.path.dirname(str(spec.origin)), name.rpartition(".")[2] + ".py")
                    if os.path.isfile(source):
                        return importlib.util.spec_from_file_location(name, source)
                    raise ModuleNotFoundError(f"No module named {name!r} (PATIENCE_CORE=python)", name=name)
            return None

    sys.meta_path.insert(0, _NoExtensions())
