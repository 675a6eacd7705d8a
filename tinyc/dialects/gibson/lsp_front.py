"""The language server's front end for this dialect (:meth:`tinyc.dialects.gibson.GibsonDialect.lsp_front`,
:mod:`tinyc.lsp.analysis`): a document is laid out and checked as ``tinyc check --dialect gibson`` does."""

from __future__ import annotations

import os
import tempfile

from ... import ast
from ...lsp.analysis import Analysis, Lines, Problem, Symbol, build, library_symbols, problem_at
from ...driver.dialect import find

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from ...driver.options import MachineOptions


class GibsonFront:
    """Gibson's dialect: the file laid out and checked as its own ``tinyc check`` does, per text (a
    document that is not saved as it is is written to a temporary file next to it, or in a temporary
    folder when its own cannot be written, so that its ``#include`` lines find the same files)."""

    def __init__(self, options: MachineOptions) -> None:
        self.options = options
        self.dialect = find("gibson")  # this package's DIALECT (its lsp_front hook imports this module)
        self.canonical = self.dialect.canonical

    def analyse(self, data: bytes, path: str | None) -> Analysis:
        """The analysis of the text ``data``, saved (or to be saved) as ``path``; a problem of its own for
        a program that cannot start (a missing include)."""
        from ...driver.session import Session
        from ...machine.console import Console
        from . import stages
        folder = os.path.dirname(path) if path and os.access(os.path.dirname(path) or ".", os.W_OK) else None
        fd, temp = tempfile.mkstemp(suffix=".tc", prefix=".tinyc-lsp-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            try:
                session = Session.from_options(self.options, self.dialect, Console())
                g = stages.load(session, temp)
            except Exception as e:  # StartError: a missing include...
                text = getattr(e, "message", "") or str(e)
                first = data.find(b"\n")
                return Analysis(data, self.dialect.name, Lines(data), [Problem(
                    None, 0, first if first >= 0 else len(data), text.strip().replace(temp, path or "document"))])
            app = g.layout.app
            clean_len = g.layout.end - app

            def to_offset(address: int) -> int:
                return address - app if 0 <= address - app <= clean_len else -1
            found = stages.problems(g)
            lines = stages.check_lines(g, found)
            problems = [problem_at(data, code, to_offset(at), line.split(": ", 1)[1] if ": " in line else line)
                        for (code, at), (line, _) in zip(found, lines)]
            try:
                program, _seed = stages._program(g)
            except Exception:
                program = None
            library: dict[str, Symbol] = {}
            if program is not None:
                memory = bytes(g.loaded.memory)
                lib_functions = [it for it in program.items if isinstance(it, ast.Function) and it.pos < app]
                library = library_symbols(lib_functions, memory, 0)
            return build(data, self.dialect.name, program, to_offset, problems, library, None, self.canonical)
        finally:
            try:
                os.unlink(temp)
            except OSError:
                pass
