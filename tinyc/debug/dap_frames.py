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
from .fast import generated_frames

__all__ = ["CompiledFrames", "EXTRA", "GLOBALS", "LOCALS", "generated_frames", "shown_text"]

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

    compiled: list[tuple[str, dict[str, Any], int]]
    frame_view: list[tuple[int, str, int, dict[str, Any] | None]]

    if TYPE_CHECKING:
        def stopped_engine(self) -> tuple[Any, Any]: ...

    def frames_view(self, eng: Any) -> list[tuple[int, str, int, dict[str, Any] | None]]:
        """The frames to show, outermost first: ``(id, name, address it runs, Python locals)``.  A frame
        the debug evaluator runs is ``eng.frames[id]`` (locals None: its frame holds them); a compiled
        call shows where its generated code stands (:func:`generated_frames`, at the stop) and its
        scalars' Python variables, and the compiled calls it made (which have no CallInfo) follow it,
        with ids from ``EXTRA``."""
        out: list[tuple[int, str, int, dict[str, Any] | None]] = []
        compiled, k = self.compiled, 0
        frames = eng.frames
        for index, info in enumerate(frames):
            j = next((j for j in range(k, len(compiled)) if compiled[j][0] == info.name), None) if info.compiled else None
            if j is None:
                out.append((index, info.name, info.pos, None))
                continue
            later = [f.name for f in frames[index + 1:] if f.compiled or f.running]  # running: a stop's frame
            end = next((e for e in range(j + 1, len(compiled)) if later and compiled[e][0] == later[0]), len(compiled))
            name, values, address = compiled[j]
            out.append((index, info.name, address or info.pos, values))
            for e in range(j + 1, end):
                out.append((EXTRA + e, compiled[e][0], compiled[e][2], compiled[e][1]))
            k = end
        self.frame_view = out
        return out


    def view_entry(self, value: object) -> tuple[int, str, int, dict[str, Any] | None] | None:
        d, eng = self.stopped_engine()
        if not self.frame_view:
            self.frames_view(eng)
        return next((f for f in self.frame_view if f[0] == value), None)


    def compiled_locals(self, eng: Any, name: str, values: dict[str, Any]) -> list[dict[str, Any]]:
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
