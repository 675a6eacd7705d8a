"""A start-up cache that cannot be poisoned (issue 24): every entry is sealed with an HMAC under the user's
key (tinyc.dirs), and one that this user's tinyc did not write is never unpickled.

The attack: something (a program before the file sandbox, another local user, a shared folder) writes a
pickle that runs code when loaded, under the exact name the cache gives an entry; the next, unrelated
``tinyc run hello.tc`` loaded it.  Each case plants such entries and runs ``python -m tinyc`` as a user
would."""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc import dirs
from tinyc.driver import startcache
from tinyc.driver.interpreter import _parse

HELLO = 'main [ pl "hello" ]\n'


class _Plant:
    """Unpickling this creates the file ``marker`` (as a real attack would run a command)."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def tinyc(cwd: Path, cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("TINYC_NO_CACHE", None)
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], capture_output=True, cwd=cwd, env=env,
                          timeout=120)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_planted_pickle_under_the_caches_own_names_is_not_loaded(tmp_path, engine):
    cache, work = tmp_path / "cache", tmp_path / "work"
    work.mkdir()
    (work / "hello.tc").write_text(HELLO)
    assert tinyc(work, cache, "run", "--engine", engine, "hello.tc").stdout == b"\r\nhello\n"
    entries = [p for p in (cache / "tinyc").iterdir() if p.name != "key"]
    assert any(p.name.startswith("prog-") for p in entries)
    marker = tmp_path / "pwned"
    crafted = pickle.dumps(_Plant(marker))
    for p in entries:  # every name the cache used, Lark's analysis included
        p.write_bytes(crafted)
    (cache / "tinyc" / "prog-0-0.pickle").write_bytes(crafted)
    again = tinyc(work, cache, "run", "--engine", engine, "hello.tc")
    assert again.returncode == 0 and again.stdout == b"\r\nhello\n", again.stderr
    assert not marker.exists()


def test_a_planted_pickle_with_a_stolen_looking_tag_is_not_loaded(tmp_path):
    # 32 bytes of anything before the pickle: only the user's key makes the right tag
    cache, work = tmp_path / "cache", tmp_path / "work"
    work.mkdir()
    (work / "hello.tc").write_text(HELLO)
    tinyc(work, cache, "run", "hello.tc")
    marker = tmp_path / "pwned"
    for p in (cache / "tinyc").glob("*.pickle"):
        p.write_bytes(p.read_bytes()[:32] + pickle.dumps(_Plant(marker)))
    assert tinyc(work, cache, "run", "hello.tc").stdout == b"\r\nhello\n"
    assert not marker.exists()


def _entry(tmp_path, monkeypatch) -> tuple[bytes, Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    text = b"f [ pn 1 ]\n"
    startcache.parsed(text, 100, lambda: _parse(text, 100, ()))
    [path] = (tmp_path / "tinyc").glob("ast-*.pickle")
    return text, path


def test_a_tampered_valid_entry_is_ignored(tmp_path, monkeypatch):
    # a real entry, its result swapped for another text's under the original tag: the key inside still
    # matches, so only the seal tells; the parse of the text is what comes back
    text, path = _entry(tmp_path, monkeypatch)
    blob = path.read_bytes()
    key, _ = pickle.loads(blob[dirs.TAG_SIZE:])
    other = _parse(b"g [ pn 2 ]\n", 100, ())
    path.write_bytes(blob[:dirs.TAG_SIZE] + pickle.dumps((key, other), pickle.HIGHEST_PROTOCOL))
    assert startcache.parsed(text, 100, lambda: _parse(text, 100, ())) == _parse(text, 100, ()) != other


def test_an_entry_sealed_with_another_key_is_ignored(tmp_path, monkeypatch):
    text, path = _entry(tmp_path, monkeypatch)
    (tmp_path / "tinyc" / dirs.KEY_FILE).write_bytes(os.urandom(dirs.KEY_SIZE))
    dirs._KEYS.clear()
    calls = []
    startcache.parsed(text, 100, lambda: calls.append(1) or _parse(text, 100, ()))
    assert calls == [1]


def test_the_cache_directory_and_its_files_are_private(tmp_path):
    cache, work = tmp_path / "cache", tmp_path / "work"
    work.mkdir()
    (work / "hello.tc").write_text(HELLO)
    tinyc(work, cache, "run", "hello.tc")
    folder = cache / "tinyc"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = list(folder.iterdir())
    assert dirs.KEY_FILE in {p.name for p in files} and len(files) > 3
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o600}
    assert len((folder / dirs.KEY_FILE).read_bytes()) == dirs.KEY_SIZE


def test_an_open_cache_directory_is_closed_and_an_open_key_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "tinyc"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    (folder / dirs.KEY_FILE).write_bytes(b"k" * dirs.KEY_SIZE)
    os.chmod(folder / dirs.KEY_FILE, 0o644)  # others could have read it: never trusted
    dirs._KEYS.clear()
    key = dirs.cache_key()
    assert key is not None and key != b"k" * dirs.KEY_SIZE
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / dirs.KEY_FILE).stat().st_mode) == 0o600


def test_the_lark_analysis_is_sealed_too(tmp_path, monkeypatch):
    # Lark's own cache= option unpickles whatever file it finds; tinyc keeps the analysis sealed instead
    from tinyc.syntax.lexer import GRAMMAR, cached_lark
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cached_lark("test", GRAMMAR, parser="lalr", lexer="basic", start="program")
    [path] = (tmp_path / "tinyc").glob("lark-test-*.sealed")
    marker = tmp_path / "pwned"
    path.write_bytes(path.read_bytes()[:32] + pickle.dumps(_Plant(marker)))
    parser = cached_lark("test", GRAMMAR, parser="lalr", lexer="basic", start="program")
    assert not marker.exists() and [t.type for t in parser.lex("pn 1", dont_ignore=True)][0] == "NAME"


def test_the_seal_is_hmac_sha256():
    # the tag is computed without importing hashlib (start-up time); it must be the standard HMAC
    import hashlib
    import hmac
    key = os.urandom(dirs.KEY_SIZE)
    for data in (b"", b"x", os.urandom(100_000)):
        assert dirs._tag(key, data) == hmac.new(key, data, hashlib.sha256).digest()
    assert dirs._compare_digest(b"a" * 32, b"a" * 32) and not dirs._compare_digest(b"a" * 32, b"b" * 32)
