"""A recorded run (tinyc.debug.stepper) as the stepper reads it: :class:`Trace` holds the JSON of
docs/stepper.md and gives the memory and the state at any step, as tinyc/debug/stepper.js does in the page."""

from __future__ import annotations

import base64
import json
from typing import Any


class Trace:
    """A recorded run: ``data`` is the JSON object of docs/stepper.md; :meth:`state` the state at a step."""

    def __init__(self, data: dict[str, Any]):
        self.data = data

    @property
    def steps(self) -> list[dict[str, Any]]:
        steps: list[dict[str, Any]] = self.data["steps"]
        return steps

    @property
    def status(self) -> str:
        return str(self.data["status"])

    def json(self) -> str:
        return json.dumps(self.data, separators=(",", ":"))

    def memory_at(self, n: int) -> bytearray:
        """The memory as it was at step ``n`` (bytes of the machine's memory, applied forward from the start)."""
        mem = bytearray(self.data["memory"]["size"])
        for address, chunk in self.data["memory"]["initial"]:
            raw = base64.b64decode(chunk)
            mem[address:address + len(raw)] = raw
        for s in self.steps[:n + 1]:
            for address, new, _old in s.get("m", ()):
                raw = bytes.fromhex(new)
                mem[address:address + len(raw)] = raw
        return mem

    def state(self, n: int, memory: bytearray | None = None) -> dict[str, Any]:
        """The state at step ``n`` as ``window.tinyc.stepTo(n)`` gives it: ``{step, kind, line, columns,
        expression, value, frames, output}``; a frame is ``{function, line, locals: {NAME: {address, size,
        value}}}``, innermost last.  ``memory``: the memory at ``n`` if the caller has it.  IndexError past
        the last step."""
        d = self.data
        s = self.steps[n]
        mem = self.memory_at(n) if memory is None else memory
        span = d["spans"][s["n"]]
        chain = []
        sid = s["t"]
        while sid >= 0:
            parent, fid, site = d["stacks"][sid]
            chain.append((fid, site))
            sid = parent
        chain.reverse()
        frames = []
        for i, (fid, _site) in enumerate(chain):
            frame = d["frames"][fid]
            below = chain[i + 1][1] if i + 1 < len(chain) else None
            line = span[0] if below is None else d["spans"][below][0] if below is not None else None
            frames.append({"function": frame["function"], "line": line,
                           "locals": {v["name"]: {"address": v["address"], "size": v["size"],
                                                  "value": value_of(mem, v, d["memory"]["int_size"])}
                                      for v in frame["locals"]}})
        return {"step": n, "kind": s["k"], "line": span[0], "columns": [span[1], span[3]],
                "expression": expression(d["source"], span), "value": s.get("v"), "frames": frames,
                "output": "".join(x.get("o", "") for x in self.steps[:n + 1])}


def value_of(mem: bytes | bytearray, var: dict[str, Any], int_size: int) -> int:
    """A variable's value in ``mem``: a scalar's number, or an array's pointer (its address)."""
    if var["length"]:
        return int(var["address"])
    size = int_size if var["type"] == "int" else 1
    a = var["address"]
    return int.from_bytes(mem[a:a + size], "little", signed=True)


def expression(source: str, span: list[int]) -> str:
    """The source text of ``span`` ([line, column, end line, end column]); a multi-line one to its first line's end."""
    lines = source.split("\n")
    line = lines[span[0] - 1] if 0 < span[0] <= len(lines) else ""
    end = span[3] - 1 if span[2] == span[0] else len(line)
    return line[span[1] - 1:end]
