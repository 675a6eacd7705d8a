"""Every public function of the interpreter's core carries a docstring (issue 25, item 5): the tree, the
errors, the linker, the syntax, the reference evaluator and C arithmetic.

Public: a module-level function, or a method of a class, whose name does not start with ``_``, and which
is not a callback named after a rule of the grammar on a Lark transformer (the class documents those:
each builds the node of its rule).  The source is read, nothing is imported.
"""

from __future__ import annotations

import ast as pyast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tinyc"
CHECKED = ["ast.py", "errors.py", "link", "syntax", "engines/evaluator.py", "engines/arith.py", "engines/cdiv.py"]


def _files() -> list[Path]:
    out: list[Path] = []
    for name in CHECKED:
        path = PACKAGE / name
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def _rules() -> set[str]:
    """The rule and alias names of the grammars (a transformer's callbacks are named after them)."""
    names: set[str] = set()
    for grammar in (PACKAGE / "syntax").glob("*.lark"):
        text = grammar.read_text(encoding="utf-8")
        names |= set(re.findall(r"^\??!?([a-z_][a-z0-9_]*)\s*:", text, re.M))
        names |= set(re.findall(r"->\s*([a-z_][a-z0-9_]*)", text))
    return names


def _is_transformer(cls: pyast.ClassDef) -> bool:
    bases = [b.value if isinstance(b, pyast.Subscript) else b for b in cls.bases]  # Transformer[Token, Node]
    return any(getattr(base, "id", getattr(base, "attr", "")) in ("Transformer", "Interpreter", "Visitor")
               for base in bases)


def undocumented() -> list[str]:
    """``file:line name`` of each public function or method without a docstring."""
    rules = _rules()
    out = []
    for path in _files():
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT)

        def visit(node: pyast.AST, cls: pyast.ClassDef | None) -> None:
            for child in pyast.iter_child_nodes(node):
                if isinstance(child, pyast.ClassDef):
                    if not child.name.startswith("_"):
                        visit(child, child)
                elif isinstance(child, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
                    if child.name.startswith("_"):
                        continue
                    if cls is not None and _is_transformer(cls) and child.name in rules:
                        continue
                    if pyast.get_docstring(child) is None:
                        owner = f"{cls.name}." if cls is not None else ""
                        out.append(f"{rel}:{child.lineno} {owner}{child.name}")
        visit(tree, None)
    return out


def test_public_functions_have_docstrings():
    missing = undocumented()
    assert not missing, f"{len(missing)} public functions without a docstring:\n" + "\n".join(missing)


def test_the_check_sees_a_missing_docstring(tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text("def f():\n    pass\n\n\ndef _g():\n    pass\n")
    monkeypatch.setattr("test_docstrings.PACKAGE", tmp_path)
    monkeypatch.setattr("test_docstrings.CHECKED", ["m.py"])
    monkeypatch.setattr("test_docstrings.ROOT", tmp_path)
    assert undocumented() == ["m.py:1 f"]
