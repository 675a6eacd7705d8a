"""A disk cache of parsed texts, so that ``tinyc run`` and the shell start without parsing again.

The library (``tinyc/lib/system.ipl``) is the same text at the same address on every start, and so is a
program run again.  The fast engine's code for a function is kept here too (:func:`code`), keyed by
everything the code generator reads.  Their ASTs (and the scan of the system file) are pickled in the user's cache
directory (:mod:`tinyc.dirs`: ``~/.cache/tinyc`` on Linux; the environment variable ``TINYC_NO_CACHE``
turns the cache off).  An entry holds its whole key and is used only if the key is equal: the text, its
address, what else the result depends on (the names of the symbol levels it was parsed with) and the
size and modification time of every stage source that builds it, so that a change to any of them
makes a new entry.  Entries are sealed with the user's key (:func:`tinyc.dirs.sealed_read`): one that
this user's tinyc did not write is never unpickled.  At most ``KEEP`` entries of a kind are kept (the oldest go).  Reading or
writing the cache never fails a run: any problem means parsing as usual.
"""

from __future__ import annotations

import os
import time
import zlib
try:  # the C unpickler without the pickle module (its Python half costs every start 1 ms)
    import _pickle as pickle
except ImportError:
    import pickle  # type: ignore[no-redef]
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Callable, TypeVar

    T = TypeVar("T")
    Stamps = tuple[object, ...]  # the sizes and times of sources (and the Python version): part of a key
# os.path, not pathlib, on the way to a hit: importing pathlib costs every start 2 ms

STAGES = ("syntax/grammar.lark", "syntax/lexer.py", "syntax/parser.py", "syntax/to_ast.py", "ast.py",
          "syntax/recovery.py", "syntax/toplevel.py", "syntax/positions.py", "syntax/runtime_names.py", "syntax/pipeline.py",
          "driver/interpreter.py", "link/symbols.py")  # what the cached results depend on
KEEP = {"code": 1000}  # entries of a kind (200 if not listed); more are pruned, oldest first



def cache_dir() -> str:
    """Where parsed texts are kept: the platform's user cache directory (:func:`tinyc.dirs.cache_path`)."""
    from ..dirs import cache_path
    return cache_path()


_STAGES: Stamps | None = None
_ENGINE: Stamps | None = None


def _stats(names: tuple[str, ...]) -> Stamps:
    """The size and modification time of every source in ``names``: a change to any of them is a new
    entry (as Python's own bytecode cache decides, without reading the files)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tinyc/
    return tuple((s.st_size, s.st_mtime_ns) for s in (os.stat(os.path.join(here, name)) for name in names))


def _stages() -> Stamps:
    global _STAGES
    if _STAGES is None:
        _STAGES = _stats(STAGES)
    return _STAGES


def engine_sources() -> tuple[str, ...]:
    """What generated code depends on (kind "code", :func:`code`): the AST and every module of the engines
    package, found by listing it (only when the fast engine asks the cache), so a new module of the
    generator is part of the key without being named here."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tinyc/
    names = sorted(n for n in os.listdir(os.path.join(here, "engines")) if n.endswith(".py"))
    return ("ast.py", *(f"engines/{n}" for n in names))


def _engine() -> Stamps:
    global _ENGINE
    if _ENGINE is None:
        import sys  # generated code is bytecode: another Python is another entry
        _ENGINE = (sys.version, _stats(engine_sources()))
    return _ENGINE


def _name(kind: str, text: bytes, base: int, extra: bytes, stamps: Stamps = ()) -> str:
    """The entry's file name: a checksum of what it depends on, the stamps of the sources that make it
    included, so that two installs used in turn keep their own entries instead of overwriting each
    other's.  Two texts may share a name; the entry holds its whole key, compared on reading, so a clash
    only costs a parse."""
    crc = zlib.crc32(repr(stamps).encode(), zlib.crc32(extra, zlib.crc32(text, base & 0xFFFFFFFF)))
    return f"{kind}-{crc:08x}-{len(text):x}.pickle"


def code(key: bytes, generate: Callable[[], bytes]) -> bytes:
    """What ``generate()`` gives (the fast engine's marshalled code for one function) for ``key`` (all
    it depends on but the generator's sources, which this adds), from the cache if it is there."""
    return parsed(key, 0, generate, "code", stages=_engine)


def parsed(text: bytes, base: int, parse: Callable[[], T], kind: str = "ast", extra: bytes = b"",
           stages: Callable[[], Stamps] | None = None) -> T:
    """What ``parse()`` gives for ``text`` loaded at ``base`` (byte address), from the cache if it is
    there; ``kind`` names the sort of result, ``extra`` anything else it depends on, ``stages`` the
    sources that make it (the parser's by default).  Errors of ``parse`` propagate and are not cached."""
    if os.environ.get("TINYC_NO_CACHE"):
        return parse()
    key = ((stages or _stages)(), base, extra, text)
    from ..dirs import sealed_read, sealed_write
    try:
        path = os.path.join(cache_dir(), _name(kind, text, base, extra, key[0]))
        payload = sealed_read(path)  # None unless this user's tinyc wrote it: only then is it unpickled
        if payload is not None:
            stored_key, result = pickle.loads(payload)  # (the pair parse() gave and this wrote)
            if stored_key == key:
                hit: T = result
                _touch(path)
                return hit
    except Exception:  # missing, unreadable, forged, stale or another text's: parse
        pass
    program = parse()
    try:
        if sealed_write(path, pickle.dumps((key, program), 5)):  # protocol 5: HIGHEST_PROTOCOL since 3.8
            _prune(os.path.dirname(path), kind)
    except Exception:
        pass
    return program


def _touch(path: str) -> None:
    """Mark an entry used now, so that pruning (oldest first) keeps what is read, not only what was
    written last; an hour's grace spares a run that reads many entries most of the writes."""
    try:
        if os.stat(path).st_mtime < time.time() - 3600:
            os.utime(path)
    except OSError:
        pass


_PRUNED: set[str] = set()  # kinds pruned by this process


def _prune(folder: str, kind: str) -> None:
    """Keep the most recently used (written or read) entries of ``kind``, as many as ``KEEP`` says: counted by kind, the
    code of many programs never pushes out the parsed library, which is written once.  Once a process
    per kind, at its first write: listing the folder on every write would cost a new program's first
    run milliseconds per function."""
    if kind in _PRUNED:
        return
    _PRUNED.add(kind)
    from pathlib import Path  # a write: the parse or the code generation cost far more
    entries = list(Path(folder).glob(f"{kind}-*.pickle"))
    keep = KEEP.get(kind, 200)
    if len(entries) <= keep:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[:len(entries) - keep]:
        try:
            old.unlink()
        except OSError:
            pass
