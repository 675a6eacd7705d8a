"""Tom Gibson's dialect of tiny-c (gibson-dialect.md), whole: its front end (``syntax.py``, ``grammar.lark``),
library (``lib/``), machine calls (``calls.py``, ``files.py``, ``plugins.py``, ``drawing.py``), engines
(``evaluator.py``, ``compiler.py``), error report (``report.py``), the run (``machine.py``), the debugger's
runner (``debug.py``) and its views (``stages.py``, ``tracer.py``, ``compile_view.py``, ``cli.py``).

:data:`DIALECT` is all the rest of tinyc knows of it (:class:`tinyc.driver.dialect.Dialect`)."""

from __future__ import annotations

from ...driver.dialect import Dialect

HEADER = (b"#include", b"#loadMC")


def announces(head: bytes) -> bool:
    """A file of this dialect starts with a ``#include`` or ``#loadMC`` header line (section 1.3)."""
    return head.startswith(HEADER)


DIALECT = Dialect(
    name="gibson", title="Tom Gibson's tiny-C (2017)", detect=announces, significance=15,
    library="dialects/gibson/lib/library.tc", search_paths=("dialects/gibson/lib",),
    machine_calls="tinyc.dialects.gibson.calls:CALLS",
    engines={"reference": "tinyc.dialects.gibson.evaluator:GibsonEvaluator",
             "fast": "tinyc.dialects.gibson.compiler:GibsonFastEngine"},
    run="tinyc.dialects.gibson.machine:run_files",
    tools={name: "tinyc.dialects.gibson.cli" for name in ("tokens", "parse", "ast", "link", "check", "compile", "trace")},
    shell="tinyc.dialects.gibson.shell:shell", view="tinyc.dialects.gibson.stages:file_view",
    trace="tinyc.dialects.gibson.tracer:trace_file", debugger="tinyc.dialects.gibson.debug:runner",
    record="tinyc.dialects.gibson.stepper:record", lexis="tinyc.dialects.gibson.lexis:LEXIS")
