"""What :mod:`tinyc.debug.dap` shows of a stop in compiled code, and text as the client shows it (a mixin of
its :class:`~tinyc.debug.dap.Server`).

Compiled calls keep no frame the debugger can read: at each stop the generated code's Python frames on the
stack are taken (:func:`generated_frames`: the function, its Python variables, the tiny-c address it runs,
from the compiler's line maps), and the frames shown are the engine's calls with those put in place of the
compiled ones' unknown places, followed by the compiled calls they made (which have no CallInfo)."""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING, Any

from .. import ast

GLOBALS = 1     # the variables reference of the globals
LOCALS = 1000   # + a frame's id: the variables reference of its locals
EXTRA = 100000  # frame ids from here: compiled calls the engine keeps no CallInfo for (compiled code's callees)


def _bytes_as_latin1(error: UnicodeError) -> tuple[str | bytes, int]:
    """The codec error handler ``tinyc-latin1``: a byte that is not UTF-8 shown as its Latin-1 character."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start:error.end]
    return bytes(bad).decode("latin-1"), error.end


codecs.register_error("tinyc-latin1", _bytes_as_latin1)


def shown_text(text: str) -> str:
    """A value the debugger made of bytes read one to one (Latin-1), shown as the UTF-8 text it holds (a
    byte that is not UTF-8 stays the Latin-1 character it was)."""
    try:
        return text.encode("latin-1").decode("utf-8", "tinyc-latin1")
    except UnicodeEncodeError:
        return text


class CompiledFrames:
    """The frames to show at a stop; the Server's ``compiled``, ``frame_view`` and ``stopped_engine`` are used."""

    compiled: list[tuple[str, dict, int]]
    frame_view: list[tuple[int, str, int, dict | None]]

    if TYPE_CHECKING:
        def stopped_engine(self) -> tuple[Any, Any]: ...

    def frames_view(self, eng) -> list[tuple[int, str, int, dict | None]]:
        """The frames to show, outermost first: ``(id, name, address it runs, Python locals)``.  A frame
        the debug evaluator runs is ``eng.frames[id]`` (locals None: its frame holds them); a compiled
        call shows where its generated code stands (:func:`generated_frames`, at the stop) and its
        scalars' Python variables, and the compiled calls it made (which have no CallInfo) follow it,
        with ids from ``EXTRA``."""
        out: list[tuple[int, str, int, dict | None]] = []
        compiled, k = self.compiled, 0
        frames = eng.frames
        for index, info in enumerate(frames):
            j = next((j for j in range(k, len(compiled)) if compiled[j][0] == info.name), None) if info.compiled else None
            if j is None:
                out.append((index, info.name, info.pos, None))
                continue
            later = [f.name for f in frames[index + 1:] if f.compiled]
            end = next((e for e in range(j + 1, len(compiled)) if later and compiled[e][0] == later[0]), len(compiled))
            name, values, address = compiled[j]
            out.append((index, info.name, address or info.pos, values))
            for e in range(j + 1, end):
                out.append((EXTRA + e, compiled[e][0], compiled[e][2], compiled[e][1]))
            k = end
        self.frame_view = out
        return out


    def view_entry(self, value) -> tuple[int, str, int, dict | None] | None:
        d, eng = self.stopped_engine()
        if not self.frame_view:
            self.frames_view(eng)
        return next((f for f in self.frame_view if f[0] == value), None)


    def compiled_locals(self, eng, name: str, values: dict) -> list[dict]:
        """The scalars a compiled call of ``name`` keeps in Python variables (``v_NAME``), as variables."""
        sym = eng.m.program.get(name) if eng.m.program is not None else None
        fn = sym.function if sym is not None else None
        types: dict[str, str] = {}
        if fn is not None:
            types = {d.name: t for t, d in fn.parameters()}
            types.update({d.name: st.type for st in fn.body.body if isinstance(st, ast.Decl) for d in st.names})
        out = []
        for key, value in values.items():
            if key.startswith("v_") and isinstance(value, int):
                out.append({"name": key[2:], "value": str(value), "type": types.get(key[2:], "int"),
                            "variablesReference": 0})
        return out


def generated_frames(frame) -> list[tuple[str, dict, int]]:
    """``(function name, Python variables, tiny-c address it runs)`` of each frame of generated code on the
    Python stack from ``frame`` outwards, outermost first (file names ``<tinyc NAME SERIAL>``, Gibson's
    ``<tinyc gibson NAME SERIAL>``; the compiler's line maps give the address)."""
    from ..engines import compiler
    out = []
    while frame is not None:
        filename = frame.f_code.co_filename
        linemap = compiler.line_map(frame) if filename.startswith("<tinyc ") else None
        if linemap is not None:
            at = [a for line, a in sorted(linemap.items()) if line <= frame.f_lineno]
            out.append((filename[1:-1].split(" ")[-2], dict(frame.f_locals), at[-1] if at else 0))
        frame = frame.f_back
    return out[::-1]
