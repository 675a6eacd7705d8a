"""``tinyc lsp``: the Language Server Protocol server of :mod:`tinyc.lsp.server` on stdin/stdout, for
editors (VS Code, Neovim, Emacs: docs/editors.md).  It needs the ``lsp`` extra (pygls, lsprotocol).

The machine options given here apply to every document analysed; ``--dialect`` is the dialect of a
document whose header announces none (the client's ``dialect`` setting, section ``tinyc``, overrides it)."""

from __future__ import annotations

import argparse
import sys

from .options import options_of


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc lsp``: ``--dialect`` and the machine options; ``--stdio`` is accepted (and is the
    only transport), as clients such as vscode-languageclient pass it."""
    from .options import dialect_argument
    dialect_argument(parser, "the dialect of a file with no #include/#loadMC header (default: pc)")
    parser.add_argument("--stdio", action="store_true", help="talk on stdin/stdout (the default and only way)")


def command(args: argparse.Namespace) -> int:
    """Serve one client on the standard streams; 0 when it exits, 2 without pygls."""
    try:
        from ..lsp.server import make_server
    except ImportError as e:
        print(f"tinyc lsp: {e.name or e} is missing: pip install 'tinyc[lsp]'", file=sys.stderr)
        return 2
    server = make_server(options_of(args, []))
    server.setting = args.dialect
    server.start_io()
    return 0
