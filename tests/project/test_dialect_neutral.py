"""No door knows a dialect by its name, and the Gibson dialect uses only the core's public names (issue 36).

What differs between dialects is a :class:`tinyc.driver.dialect.Dialect` method or attribute: a front end
that tested ``dialect == "gibson"`` would break a third dialect.  The scan reads the source with ``ast``:
a string constant equal to a shipped dialect's name outside ``tinyc/dialects/`` fails, except the one
constant ``DEFAULT`` in ``tinyc/driver/dialect.py`` (docstrings and messages hold longer strings).
"""

from __future__ import annotations

import ast
from pathlib import Path

import tinyc
from tinyc.driver.dialect import names

PACKAGE = Path(tinyc.__file__).resolve().parent
CORE = ("tinyc.syntax", "tinyc.link", "tinyc.machine", "tinyc.engines", "tinyc.driver", "tinyc.views",
        "tinyc.debug", "tinyc.lsp", "tinyc.shell", "tinyc.cli", "tinyc.kernel", "tinyc.errors", "tinyc.ast")


def _sources(root: Path):
    for path in sorted(root.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def dialect_names_in_doors(root: Path, dialects: list[str]) -> list[str]:
    """``FILE:LINE: 'NAME'`` for each string constant equal to a name of ``dialects`` under ``root`` (a tinyc
    package folder) outside its ``dialects/`` folder, less ``DEFAULT = NAME`` in ``driver/dialect.py``."""
    found = []
    for path, tree in _sources(root):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("dialects/"):
            continue
        allowed: set[int] = set()
        if relative == "driver/dialect.py":
            allowed = {id(n.value) for n in tree.body if isinstance(n, ast.Assign)
                       and [getattr(t, "id", None) for t in n.targets] == ["DEFAULT"]}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in dialects and id(node) not in allowed:
                found.append(f"{relative}:{node.lineno}: {node.value!r}")
    return found


def test_no_door_tests_a_dialect_by_its_name():
    shipped = names()
    assert {"pc", "gibson"} <= set(shipped)
    assert dialect_names_in_doors(PACKAGE, shipped) == []


def test_the_scan_finds_a_door_that_tests_a_name(tmp_path):
    (tmp_path / "kernel").mkdir()
    (tmp_path / "dialects" / "gibson").mkdir(parents=True)
    (tmp_path / "kernel" / "program.py").write_text('"""A gibson program."""\nif dialect == "gibson":\n    pass\n')
    (tmp_path / "dialects" / "gibson" / "x.py").write_text('NAME = "gibson"\n')
    assert dialect_names_in_doors(tmp_path, ["pc", "gibson"]) == ["kernel/program.py:2: 'gibson'"]


def _module_of(path: Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module ``node`` (in the file ``path`` of the tinyc package) imports from."""
    parts = ["tinyc", *path.relative_to(PACKAGE).with_suffix("").parts][:-1]  # the file's package
    if node.level:
        parts = parts[:len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))
    return node.module or ""


def private_core_imports(root: Path) -> list[str]:
    """``FILE:LINE: MODULE.NAME`` for each ``_underscore`` name the files under ``root`` import from tinyc's
    core (their own dialect package's modules may share such names)."""
    found = []
    for path, tree in _sources(root):
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = _module_of(path, node)
            if not module.startswith(CORE):
                continue
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {module}.{alias.name}")
    return found


def test_the_gibson_dialect_uses_only_public_names_of_the_core():
    assert private_core_imports(PACKAGE / "dialects" / "gibson") == []
    assert private_core_imports(PACKAGE / "dialects" / "pc") == []


def test_the_import_scan_resolves_relative_imports():
    node = ast.parse("from ...engines.compiler import _params\n").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _module_of(PACKAGE / "dialects" / "gibson" / "x.py", node) == "tinyc.engines.compiler"
    assert _module_of(PACKAGE / "dialects" / "gibson" / "__init__.py",
                      ast.parse("from ..pc import run\n").body[0]) == "tinyc.dialects.pc"  # type: ignore[arg-type]
