"""``tinyc check FILE...``: every syntax error, undeclared name and duplicate definition of a program,
found up front (:mod:`tinyc.views.check`).

The problems go to standard output, one ``FILE:LINE:COL: message`` line each (the form editors and CI
read; COL is where the tiny-c report's ``<`` stands), or as JSON (``--format json``), or as the shell's
three-line reports (``--format report``); the count goes to standard error."""

from __future__ import annotations

import argparse
import json
import sys

from .options import boot_with_files
from ..views.check import collect


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc check``: the files, loaded one after another as ``tinyc run`` loads them."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="program files, loaded in order as `tinyc run` loads them (- is stdin)")
    parser.add_argument("--format", choices=("text", "json", "report"), default="text",
                        help="text: FILE:LINE:COL: message lines (default); json: a list of objects with "
                             "file, line, column, error (the number, null for a duplicate) and message; "
                             "report: the shell's three-line error reports")


def command(args: argparse.Namespace) -> int:
    """Report every problem of the program made of ``args.files``; 0 if none, 1 if any."""
    m, ws = boot_with_files(args)
    by_file = len(args.files) > 1
    found = collect(m, ws, by_file)
    _write(args, ws, found, by_file)
    names = ", ".join(args.files)
    print(f"{names}: {len(found)} problem{'s' if len(found) != 1 else ''}" if found else f"{names}: no problems",
          file=sys.stderr)
    return 1 if found else 0


def _write(args: argparse.Namespace, ws, found: list[tuple[int | None, int, str]], by_file: bool) -> None:
    """The problems on standard output in the chosen ``--format``."""
    rows = []
    for code, cursor, message in found:
        file, line, column = ws.locate(cursor)
        file = file or args.files[0]
        rows.append({"file": file, "line": line, "column": column, "error": code, "message": message})
        if args.format == "text":
            sys.stdout.write(f"{file}:{line}:{column}: {message}\n")
        elif args.format == "report":
            report = ws.report(code if code is not None else 0, cursor, by_file)
            if code is None:  # not a tiny-c error: the message in place of the error number
                report = report.replace(" --- err  0\n", f" --- {message}\n", 1)
            sys.stdout.write(report)
    if args.format == "json":
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
