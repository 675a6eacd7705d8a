"""``tinyc fmt FILE... [--check]``: re-indent tiny-c source by its ``[ ]`` blocks (:mod:`tinyc.views.format`).

Without ``--check`` each file is rewritten in place (``-``: standard input to standard output); with it,
the files that would change are listed and the exit status is 1 (0 when none would).  A file that cannot
be read, or whose brackets do not balance, is one ``tinyc fmt: FILE: ...`` line and exit status 2."""

from __future__ import annotations

import argparse
import sys

from ..driver.dialect import DEFAULT, detect
from ..views.format import FormatError, format_source
from .options import dialect_argument


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc fmt``: the files, ``--check`` and ``--dialect``."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="tiny-c source files, rewritten in place (- reads stdin, writes stdout)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing: list the files that would change, exit 1 if any")
    dialect_argument(parser, "the lexical rules (default: gibson for a file that starts with #include or "
                             "#loadMC, else pc)")


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as f:
        return f.read()


def _format(data: bytes, dialect: str | None) -> bytes:
    found = detect(data[:16])
    chosen = dialect or (found.name if found is not None else DEFAULT)
    return format_source(data.decode("latin-1"), chosen).encode("latin-1")


def command(args: argparse.Namespace) -> int:
    """Format (or ``--check``) each file; exit status 0, 1 (``--check`` found changes) or 2 (a problem)."""
    status = 0
    for name in args.files:
        try:
            data = _read(name)
            formatted = _format(data, args.dialect)
        except OSError as e:
            print(f"tinyc fmt: {name}: {e.strerror or e}", file=sys.stderr)
            status = 2
            continue
        except FormatError as e:
            print(f"tinyc fmt: {name}: {e}; not formatted", file=sys.stderr)
            status = 2
            continue
        if args.check:
            if formatted != data:
                print(name)
                status = status or 1
        elif name == "-":
            sys.stdout.buffer.write(formatted)
        elif formatted != data:
            with open(name, "wb") as f:
                f.write(formatted)
    return status
