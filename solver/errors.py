"""The exceptions users can catch.

Everything the user got wrong (a layout, a deal file, a seed, an option) is an
``InputError``; the command line prints it as one line and exits with code 2.
"""

from __future__ import annotations


class PatienceError(Exception):
    """Base class of every error this package raises on purpose."""


class InputError(PatienceError, ValueError):
    """Bad input: the message names the file, line or key and what was expected."""


class CardError(InputError):
    """A card name that cannot be read."""


class LayoutError(InputError):
    """A layout file that is missing, malformed or breaks the schema."""


class DealError(InputError):
    """A deal that does not fit its layout (wrong cards, wrong counts, bad file)."""


class SeedError(InputError):
    """A seed outside the range a layout's deal generator accepts."""

    @classmethod
    def outside(cls, seed: int, lo: int, hi: int, layout: str, option: str = "") -> SeedError:
        """The one message of every seed out of range (``--seed``, ``--seeds``, a result's seed)."""
        return cls(f"{option + ': ' if option else ''}seed {seed}: expected an integer {lo}..{hi} for layout "
                   f"{layout!r}")


class OutputError(InputError):
    """Output that cannot be written: standard output on a full disk, an unwritable file."""


class UnsupportedError(PatienceError):
    """A layout feature that an engine does not implement (yet)."""


class EngineDisagreement(PatienceError):
    """Two engines gave different verdicts for one deal."""


class VerificationFailed(PatienceError):
    """An engine claimed a win whose solution does not replay: a bug, never a verdict."""
