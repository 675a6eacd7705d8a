"""A disk cache of parsed texts, so that ``tinyc run`` and the shell start without parsing again.

The library (``tinyc/lib/system.ipl``) is the same text at the same address on every start, and so is a
program run again.  Their ASTs (and the scan of the system file) are pickled in the user's cache
directory (:mod:`tinyc.dirs`: ``~/.cache/tinyc`` on Linux; the environment variable ``TINYC_NO_CACHE``
turns the cache off), keyed by a hash of the text, its address, what else the result depends on (the
names of the symbol levels it was parsed with) and the sources of every stage that builds it, so that a
change to any of them makes a new entry.  At most ``KEEP`` entries are kept (the oldest go).  Reading or
writing the cache never fails a run: any problem means parsing as usual.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Callable

STAGES = ("syntax/grammar.lark", "syntax/lexer.py", "syntax/parser.py", "ast.py", "syntax/recovery.py",
          "syntax/toplevel.py", "machine/interpreter.py")  # what the cached results depend on
KEEP = 200  # entries; more are pruned, oldest first


def cache_dir() -> Path:
    """Where parsed texts are kept: the platform's user cache directory (:func:`tinyc.dirs.cache_dir`)."""
    from ..dirs import cache_dir as user_cache
    return user_cache()


_STAGES_HASH: bytes | None = None


def _key(text: bytes, base: int, extra: bytes = b"") -> str:
    global _STAGES_HASH
    if _STAGES_HASH is None:
        h = hashlib.sha256()
        here = Path(__file__).resolve().parent.parent  # tinyc/
        for name in STAGES:
            h.update((here / name).read_bytes())
        _STAGES_HASH = h.digest()
    h = hashlib.sha256(_STAGES_HASH)
    h.update(b"%d\0%d\0" % (base, len(extra)))
    h.update(extra)
    h.update(text)
    return h.hexdigest()[:40]


def parsed(text: bytes, base: int, parse: Callable[[], object], kind: str = "ast", extra: bytes = b""):
    """What ``parse()`` gives for ``text`` loaded at ``base`` (byte address), from the cache if it is
    there; ``kind`` names the sort of result, ``extra`` anything else it depends on.  Errors of
    ``parse`` propagate and are not cached."""
    if os.environ.get("TINYC_NO_CACHE"):
        return parse()
    try:
        path = cache_dir() / f"{kind}-{_key(text, base, extra)}.pickle"
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:  # missing, unreadable or stale: parse
        pass
    program = parse()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump(program, f, pickle.HIGHEST_PROTOCOL)
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
