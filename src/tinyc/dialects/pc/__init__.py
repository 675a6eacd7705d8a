"""tiny-c/PC, the dialect tinyc follows by default (the reference, tinyc-reference.md): its hooks are the core's
own modules -- the grammar in :mod:`tinyc.syntax`, the system file ``lib/system.ipl``, the machine calls of
:mod:`tinyc.machine.machine_calls`, the engines of :mod:`tinyc.engines` -- and the run of :mod:`.run`."""

from __future__ import annotations

from ...driver.dialect import Dialect

TOOLS = {"tokens": "tinyc.cli.stage_views", "parse": "tinyc.cli.stage_views", "ast": "tinyc.cli.stage_views",
         "link": "tinyc.cli.stage_views", "check": "tinyc.cli.check", "compile": "tinyc.cli.compile",
         "trace": "tinyc.cli.trace"}


def announces(head: bytes) -> bool:
    """tiny-c/PC is the dialect of a file that announces none: it claims no file by itself."""
    return False


DIALECT = Dialect(
    name="pc", title="tiny-c/PC (1984), as its Linux port runs it", detect=announces, significance=8,
    library="lib/system.ipl", search_paths=(), machine_calls="tinyc.machine.machine_calls:PC_CALLS",
    engines={"reference": "tinyc.engines.evaluator:Evaluator", "fast": "tinyc.dialects.pc.run:fast_engine"},
    run="tinyc.dialects.pc.run:run", tools=TOOLS, shell="tinyc.dialects.pc.run:shell", view="tinyc.views.stages:file_view", debugger="tinyc.views.debug_runs:pc_runner")
