"""The fast engine's caches belong to a Session and are bounded (issue 36): 300 edits in the shell stay
within the stated sizes, eviction keeps the runs right, and two Sessions share nothing."""

from __future__ import annotations

import io
import re

import pytest

from tinyc import Session
from tinyc.engines.caches import LRU, EngineCaches
from tinyc.machine.console import Console
from tinyc.shell.shell import Shell


def edits(count: int) -> bytes:
    """A shell script: the function ``ff [ pn 0 ]``, then ``count`` times its number changed and ``ff`` run
    (each edit a new program text: new nodes, new code)."""
    lines = [b"ff [ pn 0 ]"] + [b".1\n.c/pn %d/pn %d/\n.ff" % (i, i + 1) for i in range(count)]
    return b"\n".join(lines) + b"\n"


def shell_session(script: bytes, caches: EngineCaches | None = None) -> tuple[Session, bytes]:
    out = io.BytesIO()
    session = Session("pc", "fast", console=Console(io.BytesIO(script), out), caches=caches)
    Shell(*session.boot()).loop()
    return session, out.getvalue()


def printed(output: bytes) -> list[int]:
    """The numbers ``ff`` printed, in order."""
    return [int(n) for n in re.findall(rb"tc> (\d+)\r\n", output)]


def test_an_lru_drops_the_least_recently_used():
    t: LRU[str, int] = LRU(2)
    t["a"], t["b"] = 1, 2
    assert t.get("a") == 1  # now "b" is the oldest
    t["c"] = 3
    assert "b" not in t and t.get("a") == 1 and t.get("c") == 3 and len(t) == 2
    with pytest.raises(ValueError):
        LRU(0)


def test_300_edits_in_the_shell_stay_within_the_bounds():
    session, out = shell_session(edits(300))
    assert printed(out) == list(range(1, 301))
    sizes = session.caches.sizes()
    assert all(n <= bound for n, bound in sizes.values()), sizes
    assert sizes["code"][0] >= 300  # one compiled ff per edit: the code was cached in this session


def test_a_full_cache_drops_old_entries_and_the_runs_stay_right():
    small = EngineCaches(code=20, linemaps=40, scans=20, facts=20, assigns=20)
    session, out = shell_session(edits(300), small)
    assert printed(out) == list(range(1, 301))  # error cursors and code of the newest text after eviction
    assert {name: n for name, (n, _) in small.sizes().items()} == {
        "code": 20, "linemaps": 40, "scans": 20, "facts": 20, "assigns": 0}


def test_two_sessions_share_no_cache():
    first, _ = shell_session(edits(3))
    second = Session("pc", "fast", console=Console(io.BytesIO(), io.BytesIO()))
    assert first.caches is not second.caches
    assert all(n == 0 for n, _ in second.caches.sizes().values())
    machine, _ = second.boot()
    assert machine.caches is second.caches and machine.engine.caches is second.caches
    before = first.caches.sizes()
    shell_session(edits(5))  # a third session's runs leave the first's caches as they were
    assert first.caches.sizes() == before


def test_the_machines_of_one_session_share_its_caches():
    session = Session("pc", "fast", console=Console(io.BytesIO(), io.BytesIO()))
    assert session.machine().caches is session.machine().caches is session.caches
