"""Where tinyc keeps files of its own: the platform's user directories, through ``platformdirs``.

* the shell's command history: the user *state* directory (``~/.local/state/tinyc/history`` on Linux);
* caches (parsed system files, Lark's grammar analysis): the user *cache* directory
  (``~/.cache/tinyc``), where :func:`prune` removes entries that no current source would ask for.

Every cache entry is *sealed* (:func:`sealed_write`, :func:`sealed_read`): an HMAC-SHA256 of its bytes under a
per-user random key (the file ``key`` in the cache directory, mode 0600) precedes them, and a reader gets the
bytes back only when the tag matches.  So nothing a program (or another user) writes into the cache directory
is ever unpickled: only what this user's tinyc wrote (issue 24, docs/security.md).  The directory is made
0700 and every file in it 0600.

Both follow ``XDG_STATE_HOME``/``XDG_CACHE_HOME`` on Linux, which the test suite points at a temporary
directory (tests/conftest.py), so tests never write to the real user directories.  Every ``tinyc run``
asks for the cache directory, and importing platformdirs costs a start milliseconds (its Unix module loads
``tempfile``, ``random`` and more): so on Linux, where the answer is the XDG rule, :func:`cache_dir`
follows that rule itself when the variable or the home directory is an absolute path (the cases in which
platformdirs answers the same, as tests/driver/test_startup.py checks), and asks platformdirs otherwise.  A history file left
by earlier versions in ``~/.tinyc_history`` is still read if there is no new one.
"""

from __future__ import annotations

import os
import stat
import sys
import time
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from pathlib import Path  # imported where a Path is made: pathlib costs a start 2 ms (cache_path)

APP = "tinyc"


def _platform_dirs():
    from platformdirs import PlatformDirs
    return PlatformDirs(APP, appauthor=False)


def cache_path() -> str:
    """The user cache directory as a string: ``$XDG_CACHE_HOME/tinyc``, else ``~/.cache/tinyc`` on Linux."""
    if sys.platform == "linux":
        for base in (os.environ.get("XDG_CACHE_HOME", ""), os.path.join(os.environ.get("HOME", ""), ".cache")):
            if os.path.isabs(base):
                return os.path.join(base, APP)
    return _platform_dirs().user_cache_dir


def cache_dir() -> Path:
    """The user cache directory (:func:`cache_path`) as a Path."""
    from pathlib import Path
    return Path(cache_path())


KEY_FILE = "key"   # the per-user sealing key in the cache directory: 32 random bytes, mode 0600
KEY_SIZE = TAG_SIZE = 32
_KEYS: dict[str, bytes] = {}  # by cache directory: read once per process
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _private(st: os.stat_result) -> bool:
    """Owned by this user and closed to everyone else (always true where there are no owners)."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or (st.st_uid == getuid() and not st.st_mode & 0o077)


def private_cache_dir() -> str | None:
    """The cache directory (a str: no pathlib on the start path), made (mode 0700) if missing and closed to
    others if it was open; None when it cannot be made or belongs to another user (then nothing is cached)."""
    folder = cache_path()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _private(os.stat(folder)):
            os.chmod(folder, 0o700)  # fails (None) when the directory is not ours
            if not _private(os.stat(folder)):
                return None
    except OSError:
        return None
    return folder


def _read_key(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not (stat.S_ISREG(st.st_mode) and _private(st) and st.st_size == KEY_SIZE):
            return None
        key = os.read(fd, KEY_SIZE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return key if len(key) == KEY_SIZE else None


def _new_key(folder: str) -> bytes | None:
    """A fresh key, written to a private temporary file and linked into place (so that a concurrent start
    never reads half a key); None when the file cannot be made, or where there are no hard links (Pyodide's
    file system in a browser: no key, so nothing is cached on its disk)."""
    if not hasattr(os, "link"):
        return None
    key = os.urandom(KEY_SIZE)
    tmp = os.path.join(folder, f"{KEY_FILE}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        try:
            os.write(fd, key)
        finally:
            os.close(fd)
        os.link(tmp, os.path.join(folder, KEY_FILE))
    except FileExistsError:  # another process made one first: that one is the key
        return _read_key(os.path.join(folder, KEY_FILE))
    except OSError:
        return None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return key


def cache_key() -> bytes | None:
    """The user's sealing key (made on first use); None when it cannot be made or is not private, which
    turns the disk caches off.  A key file that others could read or that is not ours is replaced."""
    folder = private_cache_dir()
    if folder is None:
        return None
    known = _KEYS.get(folder)
    if known is not None:
        return known
    path = os.path.join(folder, KEY_FILE)
    key = _read_key(path)
    if key is None:
        if os.path.lexists(path):
            try:
                os.unlink(path)  # unsafe (readable by others, a link, the wrong size): never trusted
            except OSError:
                return None
        key = _new_key(folder)
    if key is not None:
        _KEYS[folder] = key
    return key


def _sha256():
    """SHA-256 without importing hashlib, which loads OpenSSL (milliseconds of every start): the
    interpreter's own module, as hashlib itself falls back to."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, unused-ignore]  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:
            from hashlib import sha256  # type: ignore[assignment, unused-ignore]
    return sha256


def _tag(key: bytes, data: bytes) -> bytes:
    """HMAC-SHA256 of ``data`` under ``key`` (RFC 2104, as ``hmac.new(key, data, "sha256").digest()``;
    tests/machine/test_cache_seal.py checks that they agree)."""
    sha256 = _sha256()
    key = key.ljust(64, b"\0")  # the block size; the key is 32 bytes
    inner = sha256(bytes(b ^ 0x36 for b in key))
    inner.update(data)
    return sha256(bytes(b ^ 0x5C for b in key) + inner.digest()).digest()


def _compare_digest(a: bytes, b: bytes) -> bool:
    """``hmac.compare_digest`` (a comparison in constant time), which is ``_operator._compare_digest``:
    imported from there, since importing hmac imports hashlib."""
    from _operator import _compare_digest
    return _compare_digest(a, b)


def sealed_read(path: str | Path) -> bytes | None:
    """The bytes sealed in the cache file ``path`` by :func:`sealed_write`; None when the file is missing,
    unreadable, or its tag does not match (written by anything but this user's tinyc, or changed since)."""
    key = cache_key()
    if key is None:
        return None
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        return None
    tag, data = blob[:TAG_SIZE], blob[TAG_SIZE:]
    return data if _compare_digest(tag, _tag(key, data)) else None


def sealed_write(path: str | Path, data: bytes) -> bool:
    """Write ``data`` under its tag to the cache file ``path`` (mode 0600, replaced atomically); False
    when it cannot (no key, no room): a cache is only a cache."""
    key = cache_key()
    if key is None:
        return False
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, 0o600)
        with open(fd, "wb") as f:
            f.write(_tag(key, data))
            f.write(data)
        os.replace(tmp, path)  # atomic: a concurrent start sees the old file or the whole new one
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True


def state_dir() -> Path:
    """The user state directory (``~/.local/state/tinyc`` on Linux), from platformdirs."""
    from pathlib import Path
    return Path(_platform_dirs().user_state_dir)


def history_file() -> Path:
    """The ``tc>`` history; the old ``~/.tinyc_history`` while no new file exists."""
    from pathlib import Path
    new = state_dir() / "history"
    old = Path.home() / ".tinyc_history"
    if not new.exists() and old.is_file():
        return old
    try:
        new.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    return new


def prune(directory: Path, keep: set[str], pattern: str = "*", max_age_days: float = 30.0) -> list[Path]:
    """Delete cache files in ``directory`` matching ``pattern`` that are not in ``keep`` (names) and were
    not used for ``max_age_days``; returns what was removed.  Never fails: a cache is only a cache."""
    removed = []
    limit = time.time() - max_age_days * 86400
    try:
        for path in directory.glob(pattern):
            try:
                if path.name not in keep and path.is_file() and path.stat().st_atime < limit:
                    path.unlink()
                    removed.append(path)
            except OSError:
                continue
    except OSError:
        pass
    return removed
