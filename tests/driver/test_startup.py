"""What ``tinyc run`` loads on the way to running a program (issue 12: start-up near Python's own).

Each module below costs every start milliseconds; none is needed to run a program whose parse and code
are in the disk cache.  A new import of one of them on the run path fails here, before any benchmark.
Only the modules a run adds count: an editable install's import hook loads pathlib before tinyc does."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyc import dirs
from tinyc.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]

NOT_ON_THE_RUN_PATH = [
    "lark",                  # the parser: only when a text is not in the cache
    "tinyc.syntax.parser",
    "tinyc.syntax.pipeline",
    "typing",                # TYPE_CHECKING is a module constant instead
    "dataclasses",           # the AST and the symbol tables are plain slotted classes
    "difflib",               # only for a mistyped command
    "hashlib",               # the caches key by zlib.crc32 and hold their whole key
    "importlib.resources",
    "tinyc.views",           # the stage views: only their commands
    "tinyc.shell",           # the shell: only `tinyc` / `tinyc shell`
    "prompt_toolkit",
    "pygments",
    "select",                # only MC 12 on a terminal
    "tinyc.engines.codegen", # the code generator: only for a function not in the code cache
    "tinyc.engines.statements",
    "tinyc.engines.bounds",   # (the link's effects analysis needs no generator layer)
    "tinyc.engines.cells",
    "argparse",              # `run FILE... [--entry NAME]` is read by cli.main.quick_args
    "gettext",               # (argparse's messages)
    "locale",
    "shutil",                # (argparse's help formatter asks for the terminal size)
    "platformdirs",          # the cache directory follows the XDG rule itself on Linux (tinyc.dirs)
    "tempfile",
    "pathlib",               # os.path on the way to a cache hit
    "urllib",
    "pickle",                # the C pickler (_pickle) alone
    "contextlib",            # the few context managers of a run are classes
    "signal",                # _signal: the signal module makes enums of its constants
    "tinyc.engines.evaluator",  # the fast engine makes its reference evaluator when it first needs it
    "tinyc.dialects.gibson.machine",  # a PC file loads only the Gibson package's Dialect record (to ask it)
]

SCRIPT = """
import json, sys
before = set(sys.modules)
from tinyc.cli.main import main
status = main(["run", *sys.argv[1:]])
sys.stderr.write(json.dumps([status, sorted(set(sys.modules) - before)]))
"""


def modules_of_a_run(program: Path, *options: str) -> tuple[int, set[str]]:
    """The exit status of ``tinyc run program *options`` in a new process, and the modules it imported."""
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(program), *options], capture_output=True, cwd=ROOT,
                          timeout=120)
    status, names = json.loads(done.stderr.decode().splitlines()[-1])
    return status, set(names)


def test_a_warm_run_imports_no_parser_and_no_tool(tmp_path):
    program = tmp_path / "greet.tc"
    program.write_bytes(b'main [ int k; while(k<3) [ pn k; ++k ]; pl "done" ]\n')
    status, first = modules_of_a_run(program)   # parses, generates, fills the caches
    assert status == 0 and "lark" in first      # (the check below would see a parser if one ran)
    for options in ((), ("--entry", "main"), ("--entry=main",)):
        status, warm = modules_of_a_run(program, *options)
        assert status == 0
        loaded = [m for m in NOT_ON_THE_RUN_PATH if m in warm or any(n.startswith(m + ".") for n in warm)]
        assert loaded == []


def test_an_option_still_goes_through_argparse(tmp_path):
    program = tmp_path / "greet.tc"
    program.write_bytes(b'main [ pl "hi" ]\n')
    status, modules = modules_of_a_run(program, "--engine", "reference")
    assert status == 0 and "argparse" in modules


QUICK = [["run", "a.tc"], ["run", "a.tc", "b.tc"], ["run", "-"], ["run", "a.tc", "-"], ["run", "a.tc", "--entry", "go"],
         ["run", "a.tc", "--entry=go"], ["run", "a.tc", "--entry="], ["run", "x y.tc", "--entry", "main"]]
NOT_QUICK = [["run"], ["run", "--list"], ["run", "a.tc", "--engine", "reference"], ["run", "--entry", "go"],
             ["run", "--entry", "go", "a.tc"], ["run", "a.tc", "--entry", "-q"], ["run", "a.tc", "--ent", "go"],
             ["run", "a.tc", "-q"], ["run", "a.tc", "--"], ["shell"], ["a.tc"], [], ["--version"],
             ["run", "a.tc", "--entry", "go", "--entry", "main"]]


@pytest.mark.parametrize("argv", QUICK)
def test_the_quick_reading_gives_argparses_namespace(argv):
    quick = cli.quick_args(argv)
    assert quick is not None
    assert vars(quick) == vars(cli.build_parser("run").parse_args(cli.route(argv)))


@pytest.mark.parametrize("argv", NOT_QUICK)
def test_any_other_command_line_is_left_to_argparse(argv):
    assert cli.quick_args(argv) is None


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG rule is followed without platformdirs on Linux only")
@pytest.mark.parametrize("xdg, home", [("/x/cache", "/home/u"), (None, "/home/u"), ("", "/home/u"),
                                       ("relative/cache", "/home/u"), ("  ", "/home/u/"), (None, "/")])
def test_the_cache_directory_is_platformdirs_answer(monkeypatch, xdg, home):
    from platformdirs import PlatformDirs
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.setenv("HOME", home)
    expected = PlatformDirs("tinyc", appauthor=False).user_cache_dir
    assert os.path.normpath(dirs.cache_path()) == os.path.normpath(expected)
    assert dirs.cache_dir() == Path(expected)


def test_every_node_pickles_as_a_call_of_its_class_with_its_fields():
    import inspect
    import pickle

    from tinyc import ast
    from tinyc.driver.interpreter import _parse, system_file
    classes = [c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.Node)]
    for cls in classes:  # what Node.__reduce__ relies on
        assert tuple(inspect.signature(cls.__init__).parameters)[1:] == cls._fields, cls.__name__
    library = _parse(system_file(), 5000, ())
    call = library.items[0].__reduce__()
    assert call[0] is type(library.items[0]) and len(call[1]) == len(ast.fields(library.items[0]))
    again = pickle.loads(pickle.dumps(library, pickle.HIGHEST_PROTOCOL))
    assert again == library and again is not library


def test_error_codes_behave_as_the_int_enum_they_were():
    import pickle

    from tinyc.errors import ErrorCode, TinyCError
    kill = ErrorCode.KILL
    assert kill == 99 and int(kill) == 99 and str(kill) == "99" and f"{kill}" == "99" and b"%d" % kill == b"99"
    assert kill.name == "KILL" and kill.text == "stopped" and repr(kill) == "<ErrorCode.KILL: 99>"
    assert ErrorCode(99) is kill and pickle.loads(pickle.dumps(kill)) is kill
    assert [int(c) for c in ErrorCode][:4] == [1, 2, 3, 5] and len(list(ErrorCode)) == 19
    with pytest.raises(ValueError):
        ErrorCode(4)
    assert TinyCError(9, 0).code is ErrorCode.SYNXERR and TinyCError(55, 0).code == 55
