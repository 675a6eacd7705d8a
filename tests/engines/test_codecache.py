"""The disk cache of the fast engine's generated code (tinyc.driver.startcache.code): a function whose
AST, settings and free names' shapes are unchanged is not generated again in a new process, and
anything the code depends on that changes gives a new entry."""

import pytest

from engine_harness import run_program
from tinyc.engines import compiler
from tinyc.driver import startcache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    return tmp_path / "tinyc"


def new_process(monkeypatch):
    """Forget the code generated in this process, and fail if anything is generated again."""

    def generate(self, name, *a, **kw):
        raise AssertionError(f"{name} generated again")  # the entry statement (_run) is cached too
    monkeypatch.setattr(compiler.FastEngine, "generate", generate)


# an error inside a cached function (its address comes from the cached code), an MC node (_N) and a
# library function
PROGRAM = b"""int g(2)
f int n [
  int k
  while(k<n) [ g(k)=k*k; ++k ]
  MC 'x',1
  pn g(1)+g(2)
  pn strlen("four")
  return g(n)
]
main [ f(3); pl ""; f(2) ]
"""


def test_a_second_process_runs_the_cached_code(cache, monkeypatch):
    first = run_program(PROGRAM, "fast")
    assert first == run_program(PROGRAM, "reference")
    assert first[1] == 6  # g(3): the error of the first call's return
    assert len(list(cache.glob("code-*.pickle"))) >= 3  # f, main, strlen
    new_process(monkeypatch)
    assert run_program(PROGRAM, "fast") == first


def test_the_shapes_of_free_names_are_part_of_the_key(cache, monkeypatch):
    # the same function text at the same address: g is an int in one program, a char in the other
    as_int = b"int  g\nf [ g=300; pn g ]\n"
    as_char = b"char g\nf [ g=300; pn g ]\n"
    assert run_program(as_int, "fast", entry="f")[0] == b" 300"
    assert run_program(as_char, "fast", entry="f")[0] == b" 44"


def test_the_entry_statement_is_keyed_by_its_free_names(cache, monkeypatch):
    # the same entry text at the same address: g is an int in one program, a char in the other
    assert run_program(b"int  g\n", "fast", entry="g=300;pn g")[0] == b" 300"
    generate = compiler.FastEngine.generate
    new_process(monkeypatch)
    with pytest.raises(AssertionError, match="_run generated again"):
        run_program(b"char g\n", "fast", entry="g=300;pn g")
    monkeypatch.setattr(compiler.FastEngine, "generate", generate)
    assert run_program(b"char g\n", "fast", entry="g=300;pn g")[0] == b" 44"


def test_the_settings_are_part_of_the_key(cache, monkeypatch):
    text = b"f [ int x; x=40000; pn x+1 ]\n"
    assert run_program(text, "fast", entry="f")[0] == b" 40001"
    assert run_program(text, "fast", entry="f", int_bits=16) == run_program(text, "reference", entry="f",
                                                                            int_bits=16)
    assert run_program(text, "fast", entry="f", int_bits=16)[0] == b" -25535"


def test_a_changed_generator_source_is_a_new_entry(cache, monkeypatch):
    run_program(PROGRAM, "fast")
    monkeypatch.setattr(startcache, "_ENGINE", ("another", ()))  # as if codegen.py had been edited
    generated = []
    original = compiler.FastEngine.generate
    monkeypatch.setattr(compiler.FastEngine, "generate",
                        lambda self, name, *a, **kw: generated.append(name) or original(self, name, *a, **kw))
    run_program(PROGRAM, "fast")
    assert "f" in generated  # the entry of the old sources is not used


def test_every_generator_source_is_part_of_the_key():
    from pathlib import Path
    here = Path(startcache.__file__).resolve().parent.parent
    generator = {f"engines/{p.name}" for p in (here / "engines").glob("*.py")
                 if p.name not in ("__init__.py", "evaluator.py") and "gibson" not in p.name}
    assert generator | {"ast.py"} <= set(startcache.engine_sources())


def test_without_the_cache_nothing_is_written(cache, monkeypatch):
    monkeypatch.setenv("TINYC_NO_CACHE", "1")
    assert run_program(PROGRAM, "fast") == run_program(PROGRAM, "reference")
    assert not list(cache.glob("code-*.pickle"))
