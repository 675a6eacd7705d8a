"""A disk cache of parsed system files, so that ``tinyc run`` and the shell start without parsing one.

The library (``tinyc/lib/system.ipl``) is the same text at the same address on every start.  Its AST
is pickled in the user's cache directory (``$XDG_CACHE_HOME/tinyc`` or ``~/.cache/tinyc``; the
environment variable ``TINYC_NO_CACHE`` turns the cache off), keyed by a hash of the text, its address
and the sources of every stage that builds the AST, so that a change to any of them makes a new entry.
Reading or writing the cache never fails a run: any problem means parsing as usual.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Callable

STAGES = ("grammar.lark", "lexer.py", "parser.py", "ast.py")  # what the AST depends on


def cache_dir() -> Path:
    """Where parsed system files are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tinyc"


def _key(text: bytes, base: int) -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in STAGES:
        h.update((here / name).read_bytes())
    h.update(b"%d\0" % base)
    h.update(text)
    return h.hexdigest()[:40]


def parsed(text: bytes, base: int, parse: Callable[[], object]):
    """The AST ``parse()`` gives for ``text`` loaded at ``base`` (byte address), from the cache if it
    is there; errors of ``parse`` propagate and are not cached."""
    if os.environ.get("TINYC_NO_CACHE"):
        return parse()
    try:
        path = cache_dir() / f"ast-{_key(text, base)}.pickle"
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
    except Exception:
        pass
    return program
