"""``tinyc step FILE -o run.html``: one self-contained HTML file with the program, its recorded trace and
the stepper (tinyc/debug/stepper.js and stepper.css inlined): no network, no server.

The page offers ``window.tinyc.stepTo(n)`` (a Promise of the state at step n, as
:meth:`tinyc.debug.steptrace.Trace.state` gives it) and ``window.tinyc.trace`` (the JSON), as the playground
does (docs/stepper.md).  A trace over ``max_steps`` steps is cut to them, with a message saying so, so that a
page never holds more than a browser steps through without freezing.
"""

from __future__ import annotations

import html
import json
from typing import Any
from importlib import resources

from .steptrace import Trace

MAX_PAGE_STEPS = 1_000_000  # steps a page holds: about 40 MB of JSON, a few seconds to open


def asset(name: str) -> str:
    """The text of the stepper's ``stepper.js`` or ``stepper.css`` (package data of tinyc.debug)."""
    return resources.files("tinyc.debug").joinpath(name).read_text(encoding="utf-8")


def cut(trace: Trace, max_steps: int) -> Trace:
    """``trace`` with at most ``max_steps`` steps; a longer one is cut, status ``cut`` and a message."""
    data = trace.data
    if len(data["steps"]) <= max_steps:
        return trace
    kept = dict(data, steps=data["steps"][:max_steps], status="cut", error=None, report="",
                message=f"the trace has {len(data['steps'])} steps: the page holds the first {max_steps} "
                        f"(tinyc step --limit records fewer)")
    return Trace(kept)


def _script_json(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element (no ``</`` and no ``<!--``)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


BOOT = """
(function () {
  const trace = JSON.parse(document.getElementById("trace").textContent);
  const stepper = TinycStepper.mount(document.getElementById("stepper"), trace);
  window.tinyc = {
    trace,
    status: trace.status,
    stepTo(n) { return Promise.resolve(stepper.goTo(n)); },
    record() { return Promise.resolve({ steps: trace.steps.length, status: trace.status, output: trace.output }); },
  };
  document.getElementById("stepper").focus();
})();
"""


def page(trace: Trace, max_steps: int = MAX_PAGE_STEPS) -> str:
    """The HTML text of the page of ``trace`` (cut to ``max_steps`` steps)."""
    trace = cut(trace, max_steps)
    d = trace.data
    title = f"tinyc step: {d['file']} ({d['entry']})"
    status = {"done": "ran to its end", "error": "stopped with an error", "limit": "stopped at the step limit",
              "stopped": "stopped", "cut": "cut"}.get(d["status"], d["status"])
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
body {{ margin: 0; padding: .5em 1em; font-family: system-ui, sans-serif; background: #fafafa; color: #222; }}
header {{ display: flex; gap: 1em; align-items: baseline; }}
header h1 {{ font-size: 1.1em; margin: 0; }}
{asset("stepper.css")}
</style>
</head>
<body>
<header><h1>{html.escape(title)}</h1>
<span class="note">{len(d['steps'])} steps, {html.escape(status)}; recorded by tinyc ({html.escape(d['dialect'])} dialect).
Keys: ← → small steps, Shift+← → statements, O over a call, C to the next breakpoint.</span></header>
<div id="stepper"></div>
<script type="application/json" id="trace">{_script_json(d)}</script>
<script>{asset("stepper.js")}</script>
<script>{BOOT}</script>
</body>
</html>
"""


def inline(trace: Trace, max_steps: int = 200_000, height: int = 640) -> str:
    """The page of ``trace`` (cut to ``max_steps`` steps) as one ``<iframe srcdoc>`` element: the notebook's
    ``%%tinyc_step`` and the kernel's ``%step`` show it inline, its script kept apart from the notebook's."""
    return (f'<div class="tinyc-step"><iframe style="width:100%;height:{height}px;border:1px solid #ccc" '
            f'sandbox="allow-scripts" srcdoc="{html.escape(page(trace, max_steps), quote=True)}"></iframe></div>')
