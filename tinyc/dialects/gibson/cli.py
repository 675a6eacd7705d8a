"""``tinyc tokens|parse|ast|link|check|trace|compile`` on a program of the Gibson dialect
(:mod:`tinyc.dialects.gibson.stages`): chosen with ``--dialect gibson`` or by the file's ``#include``/``#loadMC``
header, as ``tinyc run`` chooses."""

from __future__ import annotations

import argparse
import json
import sys

from ...errors import TinyCError
from .machine import StartError
from ...cli.options import session_of
from ...driver.session import Session
from ...machine.console import Console
from ...machine.shipped import program_path

VIEWS = ("tokens", "parse", "ast", "link", "check", "trace", "compile")


def _unavailable(args: argparse.Namespace, why: str) -> int:
    print(f"tinyc {args.command}: {why}", file=sys.stderr)
    return 2


def command(args: argparse.Namespace) -> int:
    """Print the view of ``args.command`` for the Gibson program; 1 with the dialect's report on an error
    (``check``: when it found any problem), 2 when the view cannot be made (a bad file, a missing include)."""
    from . import stages as views
    files = list(getattr(args, "files", None) or [getattr(args, "file", None)])
    if args.command not in VIEWS:
        return _unavailable(args, "this view is not available for the Gibson dialect")
    if getattr(args, "statement", None) is not None:
        return _unavailable(args, "-e STATEMENT is not available for the Gibson dialect")
    if len(files) != 1 or files[0] in (None, "-"):
        return _unavailable(args, "the Gibson dialect reads one application file (use #include lines)")
    try:
        session = session_of(args, Console(), dialect="gibson")
        g = views.load(session, program_path(files[0]))
    except StartError as e:
        sys.stderr.write(e.message or f"tinyc: {files[0]}: cannot start (status {e.status})\n")
        return 2
    if args.command == "check":
        return _check(args, g, views)
    if args.command == "trace":
        return _trace(args, g.path, session_of(args, dialect="gibson"))
    try:
        if args.command == "tokens":
            text = views.tokens(g, layout=args.layout)
        elif args.command == "parse":
            text = views.parse_tree(g)
        elif args.command == "ast":
            text = views.ast_dump(g)
        elif args.command == "compile":
            from .compile_view import generated_python
            if args.entry != "main":
                return _unavailable(args, "--entry is not available for the Gibson dialect")
            text = generated_python(g, args.library)
        else:
            text = views.link_map(g, show_library=args.library)
    except TinyCError as e:
        sys.stderr.write(g.report(e))
        return 1
    sys.stdout.write(text)
    return 0


def _check(args: argparse.Namespace, g, views) -> int:
    """``tinyc check``: one ``FILE:LINE:COL: error N: TEXT`` line per problem (or JSON, or the dialect's
    reports); the count on standard error."""
    found = views.check_lines(g, views.problems(g))
    if args.format == "json":
        rows = []
        for (code, at), (line, _) in zip(views.problems(g), found):
            where = g.place(at).split(":")
            rows.append({"file": g.path, "line": int(where[0]) if where[0].isdigit() else where[0],
                         "column": int(where[-1]) if where[-1].isdigit() else 0, "error": code,
                         "message": line.split(": ", 1)[1]})
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
    else:
        for line, report in found:
            sys.stdout.write(report if args.format == "report" else line + "\n")
    count = len(found)
    print(f"{g.path}: {count} problem{'s' if count != 1 else ''}" if count else f"{g.path}: no problems",
          file=sys.stderr)
    return 1 if found else 0


def _trace(args: argparse.Namespace, path: str, session: Session) -> int:
    """``tinyc trace``: the program's output on stdout, the trace and any report on stderr."""
    from .tracer import run_traced
    from ...debug.tracer import same_destination
    code = None if args.entry == "main" else args.entry
    outcome = run_traced(session, path, code, sys.stdin.buffer, sys.stdout.buffer, sys.stderr, args.calls,
                         args.limit, args.library, same_destination(sys.stdout, sys.stderr))
    sys.stdout.flush()
    return outcome.render()
