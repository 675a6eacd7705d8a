"""What ``tinyc run`` loads on the way to running a program (issue 12: start-up near Python's own).

Each module below costs every start milliseconds; none is needed to run a program whose parse and code
are in the disk cache.  A new import of one of them on the run path fails here, before any benchmark."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NOT_ON_THE_RUN_PATH = [
    "lark",                  # the parser: only when a text is not in the cache
    "tinyc.syntax.parser",
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
]

SCRIPT = """
import json, sys
from tinyc.cli.main import main
status = main(["run", sys.argv[1]])
sys.stderr.write(json.dumps([status, sorted(sys.modules)]))
"""


def modules_of_a_run(program: Path) -> tuple[int, set[str]]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(program)], capture_output=True, cwd=ROOT,
                          timeout=120)
    status, names = json.loads(done.stderr.decode().splitlines()[-1])
    return status, set(names)


def test_a_warm_run_imports_no_parser_and_no_tool(tmp_path):
    program = tmp_path / "greet.tc"
    program.write_bytes(b'main [ int k; while(k<3) [ pn k; ++k ]; pl "done" ]\n')
    status, first = modules_of_a_run(program)   # parses, generates, fills the caches
    assert status == 0 and "lark" in first      # (the check below would see a parser if one ran)
    status, warm = modules_of_a_run(program)
    assert status == 0
    loaded = [m for m in NOT_ON_THE_RUN_PATH if m in warm or any(n.startswith(m + ".") for n in warm)]
    assert loaded == []
