"""A disk cache of parsed texts, so that ``tinyc run`` and the shell start without parsing again.

The library (``tinyc/lib/system.ipl``) is the same text at the same address on every start, and so is a
program run again.  Their ASTs (and the scan of the system file) are pickled in the user's cache
directory (:mod:`tinyc.dirs`: ``~/.cache/tinyc`` on Linux; the environment variable ``TINYC_NO_CACHE``
turns the cache off).  An entry holds its whole key and is used only if the key is equal: the text, its
address, what else the result depends on (the names of the symbol levels it was parsed with) and the
size and modification time of every stage source that builds it, so that a change to any of them
makes a new entry.  At most ``KEEP`` entries are kept (the oldest go).  Reading or
writing the cache never fails a run: any problem means parsing as usual.
"""

from __future__ import annotations

import os
import pickle
import zlib
from pathlib import Path
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Callable

STAGES = ("syntax/grammar.lark", "syntax/lexer.py", "syntax/parser.py", "syntax/to_ast.py", "ast.py",
          "syntax/recovery.py", "syntax/toplevel.py", "syntax/positions.py", "machine/interpreter.py")  # what the cached results depend on
KEEP = 200  # entries; more are pruned, oldest first


def cache_dir() -> Path:
    """Where parsed texts are kept: the platform's user cache directory (:func:`tinyc.dirs.cache_dir`)."""
    from ..dirs import cache_dir as user_cache
    return user_cache()


_STAGES: tuple | None = None


def _stages() -> tuple:
    """The size and modification time of every stage source: a change to any of them is a new entry
    (as Python's own bytecode cache decides, without reading the files)."""
    global _STAGES
    if _STAGES is None:
        here = Path(__file__).resolve().parent.parent  # tinyc/
        stats = [os.stat(here / name) for name in STAGES]
        _STAGES = tuple((s.st_size, s.st_mtime_ns) for s in stats)
    return _STAGES


def _name(kind: str, text: bytes, base: int, extra: bytes) -> str:
    """The entry's file name: a checksum of what it depends on.  Two texts may share a name; the entry
    holds its whole key, compared on reading, so a clash only costs a parse."""
    crc = zlib.crc32(extra, zlib.crc32(text, base & 0xFFFFFFFF))
    return f"{kind}-{crc:08x}-{len(text):x}.pickle"


def parsed(text: bytes, base: int, parse: Callable[[], object], kind: str = "ast", extra: bytes = b""):
    """What ``parse()`` gives for ``text`` loaded at ``base`` (byte address), from the cache if it is
    there; ``kind`` names the sort of result, ``extra`` anything else it depends on.  Errors of
    ``parse`` propagate and are not cached."""
    if os.environ.get("TINYC_NO_CACHE"):
        return parse()
    key = (_stages(), base, extra, text)
    try:
        path = cache_dir() / _name(kind, text, base, extra)
        with open(path, "rb") as f:
            stored_key, result = pickle.load(f)
        if stored_key == key:
            return result
    except Exception:  # missing, unreadable, stale or another text's: parse
        pass
    program = parse()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump((key, program), f, pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # atomic: a concurrent start sees the old state or the whole file
        _prune(path.parent)
    except Exception:
        pass
    return program


def _prune(folder: Path) -> None:
    """Keep the ``KEEP`` most recently written entries."""
    entries = list(folder.glob("*.pickle"))
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[:len(entries) - KEEP]:
        try:
            old.unlink()
        except OSError:
            pass
