"""``x ADDR [N]``, the debugger's dump of the flat memory (:mod:`tinyc.debug.commands`).

Each row shows an address, up to eight bytes in hex, the same bytes as text, the ints they hold
(little-endian, as the memory stores them) and the symbol that owns the row's bytes: a global, a local
of an active call (with its function), an element of an array, or the program text of a function.
A row never spans two owners, so every byte's owner is the one its row names.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it

from ..link.symbols import Symbol

if TYPE_CHECKING:
    from ..engines.evaluator import Evaluator
    from ..link.symbols import Frame
    from .engine import CallInfo

ROW = 8          # bytes per row at most
DEFAULT = 16     # bytes dumped when N is not given
LIMIT = 4096     # bytes dumped at most


class Owners:
    """The owners of addresses in ``eng``'s memory while the program stands still.

    ``spans`` holds ``(first, end, label, symbol)`` for every variable's storage: the globals of the
    program and the library, then each active call's locals (labelled with the function's name)."""

    def __init__(self, eng: Evaluator, frames: list[tuple[CallInfo, Frame | None]]) -> None:
        self.mem = eng.mem
        self.spans: list[tuple[int, int, str, Symbol | None]] = []
        self.functions: list[tuple[int, str]] = []
        for table in (eng.m.library, eng.m.program):
            for s in (table or ()):
                if s.kind == "func":
                    self.functions.append((s.address, s.name))
                else:
                    self.add(s, "")
        for info, frame in frames:
            for s in (frame.locals.values() if frame is not None else ()):
                self.add(s, f"{info.name}: ")
        self.functions.sort()
        lib = getattr(eng.m, "library_text", None)
        self.library = (lib.base, lib.base + len(lib.text)) if lib is not None else (0, 0)

    def add(self, s: Symbol, where: str) -> None:
        size = self.mem.sizeof(s.type) * (max(s.length, 1) if s.array else 1)
        if s.kind == "var" and 0 <= s.address < self.mem.size:
            self.spans.append((s.address, s.address + size, where + s.name, s))

    def at(self, addr: int, program: tuple[int, int], limit: int) -> tuple[str, int]:
        """The label of the owner of the bytes from ``addr`` ("" when nothing owns them) and where the row
        ends: at ``limit``, at the owner's end, or where the next owner begins.  Of two spans that hold
        ``addr`` the larger wins (an array parameter is a pointer into its caller's storage), then the
        later (a local over a global)."""
        nxt = min(limit, self.mem.size)
        best = None
        for span in self.spans:
            first, end = span[0], span[1]
            if first <= addr < end and (best is None or end - first >= best[1] - best[0]):
                best = span
            elif addr < first:
                nxt = min(nxt, first)
        if best is not None:
            first, end, label, s = best
            stop = min(end, nxt)
            if s is not None and s.array:
                size = self.mem.sizeof(s.type)
                lo, hi = (addr - first) // size, (stop - 1 - first) // size
                stop = min(stop, first + (hi + 1) * size)
                return (f"{label}({lo})" if lo == hi else f"{label}({lo}..{hi})"), stop
            return label, stop
        for kind, (first, end) in (("program", program), ("library", self.library)):
            if first <= addr < end:
                name = ""
                for start, fname in self.functions:
                    if first <= start <= addr:
                        name = fname
                return (f"{kind} text, in {name}" if name else f"{kind} text"), min(nxt, end)
        return "", nxt


def dump(eng: Evaluator, frames: list[tuple[CallInfo, Frame | None]], start: int, count: int,
         program: tuple[int, int]) -> str:
    """The rows of ``count`` bytes from the absolute address ``start`` (see the module docstring);
    ``frames`` the active calls as ``(CallInfo, Frame)``, ``program`` the program text's span."""
    mem = eng.mem
    if not 0 <= start < mem.size:
        return f"x: {start} is outside the memory (0 to {mem.size - 1})\n"
    count = max(1, min(count, LIMIT, mem.size - start))
    owners = Owners(eng, frames)
    size = mem.int_size
    out = []
    addr, end = start, start + count
    while addr < end:
        label, stop = owners.at(addr, program, min(end, addr + ROW))
        row_end = max(stop, addr + 1)
        chunk = bytes(mem.data[addr:row_end])
        hexes = " ".join(f"{b:02x}" for b in chunk)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        ints = " ".join(str(int.from_bytes(chunk[k:k + size], "little", signed=True))
                        for k in range(0, len(chunk) - size + 1, size))
        owner = f"  {label}" if label else ""
        out.append(f"{addr:7d}: {hexes:<23s}  |{text:<8s}|  int {ints or '-'}{owner}\n")
        addr = row_end
    return "".join(out)
