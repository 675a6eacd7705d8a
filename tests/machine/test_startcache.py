"""The disk cache of parsed system files (tinyc.driver.startcache): hits give the parsed AST, misses parse."""

from tinyc.driver import startcache
from tinyc.driver.interpreter import _parse, system_file


def test_second_start_loads_the_ast_without_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    text = system_file()
    first = startcache.parsed(text, 5000, lambda: _parse(text, 5000, ()))
    assert list((tmp_path / "tinyc").glob("ast-*.pickle"))

    def no_parse():
        raise AssertionError("parsed although the cache holds this text")
    again = startcache.parsed(text, 5000, no_parse)
    assert again == first and again is not first


def test_other_text_or_address_misses(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    calls = []
    for text, base in [(b"f [ pn 1 ]\n", 100), (b"f [ pn 2 ]\n", 100), (b"f [ pn 1 ]\n", 200)]:
        startcache.parsed(text, base, lambda: calls.append(base) or _parse(text, base, ()))
    assert calls == [100, 100, 200]


def test_a_broken_cache_file_means_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    text = b"f [ pn 1 ]\n"
    startcache.parsed(text, 100, lambda: _parse(text, 100, ()))
    for path in (tmp_path / "tinyc").glob("ast-*.pickle"):
        path.write_bytes(b"not a pickle")
    assert startcache.parsed(text, 100, lambda: _parse(text, 100, ())) == _parse(text, 100, ())


def test_entries_sharing_a_file_name_never_give_the_other_text(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    monkeypatch.setattr(startcache, "_name", lambda kind, text, base, extra: "ast-same.pickle")
    one, two = b"f [ pn 1 ]\n", b"f [ pn 2 ]\n"
    startcache.parsed(one, 100, lambda: _parse(one, 100, ()))
    got = startcache.parsed(two, 100, lambda: _parse(two, 100, ()))
    assert got == _parse(two, 100, ()) != _parse(one, 100, ())


def test_a_changed_stage_source_misses(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    text, calls = b"f [ pn 1 ]\n", []
    startcache.parsed(text, 100, lambda: calls.append(1) or _parse(text, 100, ()))
    monkeypatch.setattr(startcache, "_STAGES", ((1, 2),))  # as if parser.py had been edited
    startcache.parsed(text, 100, lambda: calls.append(2) or _parse(text, 100, ()))
    assert calls == [1, 2]


def test_every_source_of_the_cached_parse_is_part_of_the_key():
    from pathlib import Path
    here = Path(startcache.__file__).resolve().parent.parent
    syntax = {f"syntax/{p.name}" for p in (here / "syntax").iterdir()
              if p.suffix in (".py", ".lark") and p.name not in ("__init__.py", "dialect.py")
              and "gibson" not in p.name}  # the Gibson front end does not use the cache
    assert syntax | {"ast.py", "driver/interpreter.py"} <= set(startcache.STAGES)


def test_pruning_counts_each_kind_apart_and_keeps_the_newest(tmp_path, monkeypatch):
    import os
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    monkeypatch.setattr(startcache, "KEEP", {"code": 2})
    folder = tmp_path / "tinyc"
    folder.mkdir()
    for k, name in enumerate(["ast-old.pickle", "code-a.pickle", "code-b.pickle", "code-c.pickle"]):
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, (1000 + k, 1000 + k))  # written in this order, long ago
    monkeypatch.setattr(startcache, "_PRUNED", set())
    startcache.code(b"a key", lambda: b"marshalled code")
    left = sorted(p.name for p in folder.glob("*.pickle"))
    assert "ast-old.pickle" in left  # another kind: never pushed out by code entries
    assert [n for n in left if n.startswith("code-")] == sorted(
        ["code-c.pickle", startcache._name("code", b"a key", 0, b"", startcache._engine())])
    assert startcache.code(b"a key", lambda: b"not used") == b"marshalled code"


def test_an_entry_read_again_outlives_newer_ones_left_unread(tmp_path, monkeypatch):
    """Pruning keeps the most recently used entries: a hit marks its entry used, so the code of a
    program run every day is not pushed out by programs written after it and never run again."""
    import os
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    monkeypatch.setattr(startcache, "KEEP", {"code": 2})
    monkeypatch.setattr(startcache, "_PRUNED", {"code"})    # no pruning while the entries are made
    for k, key in enumerate([b"daily", b"once", b"twice"]):
        startcache.code(key, lambda key=key: key + b" code")
        path = tmp_path / "tinyc" / startcache._name("code", key, 0, b"", startcache._engine())
        os.utime(path, (1000 + k, 1000 + k))                  # written in this order, long ago
    assert startcache.code(b"daily", lambda: b"not used") == b"daily code"   # a hit
    monkeypatch.setattr(startcache, "_PRUNED", set())
    startcache.code(b"new", lambda: b"new code")              # a write prunes to 2 entries
    left = {p.name for p in (tmp_path / "tinyc").glob("code-*.pickle")}
    assert left == {startcache._name("code", key, 0, b"", startcache._engine())
                    for key in (b"daily", b"new")}


def test_two_installs_keep_their_own_entries(tmp_path, monkeypatch):
    """The sources' stamps are part of an entry's name: another install (other stamps) writes another file
    instead of overwriting this one's, so using two installs in turn does not parse on every run."""
    ours = startcache._name("ast", b"text", 0, b"", ((1, 2),))
    theirs = startcache._name("ast", b"text", 0, b"", ((1, 3),))
    assert ours != theirs and ours.startswith("ast-") and theirs.startswith("ast-")
