"""``tinyc dap`` driven by VS Code's own DebugClient (``@vscode/debugadapter-testsupport``, run by node:
tests/editors/dap_client.js), issue 38 item 1: a whole session on fact.tc with a paged stack trace; a
disconnect and any other request answered while the program runs; the adapter ends when its client goes
away; a compiled loop that calls nothing paused twice, showing main's line and locals; UTF-8 text in
output, variables and evaluate; a bad breakpoint condition refused, a failing one the stop's reason;
terminate ends with a terminated event; setVariable, setExpression, breakpointLocations, loadedSources,
hit counts, log points, the 'errors' exception filter and restart.  Skipped without node/npm unless TINYC_REQUIRE_SYSTEM=1."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from editor_tools import node

SCRIPT = Path(__file__).resolve().parents[1] / "editors" / "dap_client.js"
TINYC = str(Path(sys.executable).parent / "tinyc")


@pytest.mark.parametrize("scenario", ["fact", "disconnectWhileRunning", "clientGone", "requestsWhileRunning",
                                      "pauseCompiledLoop", "pauseAtACall", "utf8", "badCondition", "niceties",
                                      "exceptionFilter"])
def test_debug_client_scenario(scenario, tmp_path):
    done = node(SCRIPT, scenario, TINYC, str(tmp_path), timeout=180)
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-1000:]
