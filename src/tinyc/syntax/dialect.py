"""Dialects: the tiny-c/PC language tinyc follows by default, and Tom Gibson's "new classical" tiny-C.

A dialect is a set of differences applied to one interpreter (issue 15), not a second interpreter.
:class:`Dialect` lists them as data; the lexer, the grammar, the library, the machine calls, the
evaluator and the error report read the switches they need.  ``docs/dialects.md`` compares the two
dialects point by point; the project's Gibson-dialect reference (section 7; not in the repository) is the source.
"""

from __future__ import annotations



class Dialect:
    """The switches that tell one dialect from the other.

    * ``significance``: characters a name keeps (first ``significance - 1`` plus the last);
    * ``comments``: the openers of a comment that runs to the end of the line;
    * ``cr_is_line_end``: CR alone ends a line (else CR bytes are dropped when a file is read);
    * ``hash_lines``: top-level lines starting with ``#`` are directives or skipped;
    * ``prefix_keywords``: keywords are matched as plain prefixes (``interest`` is ``int erest``);
    * ``incdec_not``: the operators ``++ -- !`` exist;
    * ``if_parens``: ``if`` owns an optional ``(`` (else its condition is a plain expression);
    * ``variadic``: ``...`` may end a parameter list;
    * ``late_reads``: a bare variable operand stays a reference until an operator reads it;
    * ``library``: the library file (package-relative); ``grammar``: the Lark grammar file;
    * ``machine_calls``: the module holding the MC table (``machine_call``);
    * ``report``: ``"pc"`` (`` L --- err  E`` and ``<``) or ``"gibson"`` (``app line N`` and ``^``);
    * ``pl_newline``: what ``pl`` writes before its text.
    """

    __slots__ = ("name", "significance", "comments", "cr_is_line_end", "hash_lines", "prefix_keywords",
                 "incdec_not", "if_parens", "variadic", "late_reads", "library", "grammar", "machine_calls",
                 "report", "pl_newline")

    def __init__(self, *, name: str, significance: int, comments: tuple[str, ...], cr_is_line_end: bool,
                 hash_lines: bool, prefix_keywords: bool, incdec_not: bool, if_parens: bool, variadic: bool,
                 late_reads: bool, library: str, grammar: str, machine_calls: str, report: str,
                 pl_newline: bytes) -> None:
        self.name = name
        self.significance = significance
        self.comments = comments
        self.cr_is_line_end = cr_is_line_end
        self.hash_lines = hash_lines
        self.prefix_keywords = prefix_keywords
        self.incdec_not = incdec_not
        self.if_parens = if_parens
        self.variadic = variadic
        self.late_reads = late_reads
        self.library = library
        self.grammar = grammar
        self.machine_calls = machine_calls
        self.report = report
        self.pl_newline = pl_newline

    def __setattr__(self, name: str, value: object) -> None:  # frozen once made
        if hasattr(self, name):
            raise AttributeError(f"a dialect's switches are fixed: {name}")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"

    def canonical(self, name: str) -> str:
        """The significant form of a name: a long name keeps its first characters plus its last."""
        n = self.significance
        return name if len(name) <= n else name[:n - 1] + name[-1]


PC = Dialect(
    name="pc", significance=8, comments=("/*",), cr_is_line_end=False, hash_lines=False,
    prefix_keywords=False, incdec_not=True, if_parens=True, variadic=False, late_reads=False,
    library="lib/system.ipl", grammar="grammar.lark", machine_calls="tinyc.machine.machine_calls",
    report="pc", pl_newline=b"\r\n")

GIBSON = Dialect(
    name="gibson", significance=15, comments=("/*", "//"), cr_is_line_end=True, hash_lines=True,
    prefix_keywords=True, incdec_not=False, if_parens=False, variadic=True, late_reads=True,
    library="dialects/gibson/lib/library.tc", grammar="dialects/gibson/grammar.lark",
    machine_calls="tinyc.dialects.gibson.calls", report="gibson", pl_newline=b"\n")

DIALECTS = {d.name: d for d in (PC, GIBSON)}


def detect(text: bytes) -> Dialect | None:
    """The dialect a file announces by itself: Gibson's when it starts with an ``#include`` (or
    ``#loadMC``) header line."""
    return GIBSON if text.startswith((b"#include", b"#loadMC")) else None
