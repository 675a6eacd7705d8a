"""Every node class of ``tinyc.ast`` is handled by both engines and by the views (issue 25, item 4).

The node classes are found by introspection, so a class added to ``tinyc.ast`` fails these tests until
the reference evaluator has its ``visit_<Node>``, a program below contains it, the fast engine compiles
that program (or the class is listed, with its reason, as one the fast engine hands to the reference
evaluator) and the views (tokens, ast dump, trace) show it.
"""

from __future__ import annotations

import io
import re
import typing

import pytest

from tinyc import ast
from tinyc.ast import visitors
from tinyc.engines.evaluator import Evaluator
from tinyc.dialects.gibson.evaluator import GibsonEvaluator
from tinyc.driver.session import Session
from tinyc.machine.console import Console
from tinyc.syntax.pipeline import parse_program
from tinyc.debug import tracer
from tinyc.views import stages

STATEMENTS = set(typing.get_args(ast.Stmt))
EXPRESSIONS = set(typing.get_args(ast.Expr))
# node classes that are not run on their own, and where they are handled instead
STRUCTURE = {
    ast.Program: "the linker and the workspace (its items)",
    ast.Function: "the linker (a symbol) and Evaluator.call",
    ast.Declarator: "Decl (the linker's declare) and Evaluator.bind",
    ast.EndLibrary: "the linker (the end of the library's level)",
    ast.NameCheck: "visit_ErrorStmt (a failed statement's prefix)",
}
# node classes whose functions the fast engine gives to the reference evaluator, and why
FAST_FALLBACK = {
    ast.Reparse: "dynamic locals: the parse depends on which names are locals when it runs",
    ast.Recheck: "only inside a Reparse",
    ast.NameCheck: "a failed statement with a prefix",
}

COMPILED = {  # programs the fast engine compiles whole (no function falls back)
    "statements and expressions": (
        b"int g(3)\nchar s(9)\nsq int n [ return n*n ]\nmain [\n  int i, a(4)\n  char c\n  c = 'x'\n"
        b"  i = sq 3 + 2 * -1\n  if (i > 2) pn i else pn 0\n  while (i < 12) [ ++i; if (i == 10) break ]\n"
        b"  for (i = 0; i < 3; ++i) a(i) = !i\n  g(1) = a(0) + i / 2 - i % 2\n  ps \"ok\"\n"
        b"  MC 65, 1;;\n  return\n]\n"),
    "a statement that did not parse, endlibrary": b"main [ pn 1; ) ]\nendlibrary\n",
}
REFERENCE_ONLY = {  # programs with a node of FAST_FALLBACK: the fast engine must still agree
    "a name made a local at run time": (
        b"g [ return 1 ]\nmain [ int i; while (g) [ pn i; ++i; if (i==3) [ int g ] ]; pn 9 ]\n"),
    "a failed statement's prefix": b"int a(3)\nmain [ pn 5; a(1 + ]\n",
}
PROGRAMS = {**COMPILED, **REFERENCE_ONLY}


def node_classes_of_module() -> set[type]:
    """The node classes defined in tinyc.ast, found by walking the module (not through ast.node_classes)."""
    return {v for v in vars(ast).values()
            if isinstance(v, type) and issubclass(v, ast.Node) and v is not ast.Node}


def nodes(node: ast.Node) -> typing.Iterator[ast.Node]:
    """``node`` and every node below it, through all of its fields."""
    yield node
    for name in ast.fields(node):
        value = getattr(node, name)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.Node):
                yield from nodes(child)


def classes_in(source: bytes) -> set[type]:
    """The node classes of ``source`` parsed as ``tinyc run`` parses it (against the library's names)."""
    loaded = stages.load(source)
    return {type(n) for n in nodes(parse_program(loaded.text, loaded.program_levels(), loaded.base))}


class NoFallback:
    """Stands in for the fast engine's reference evaluator: any use means a function was not compiled."""

    def __getattr__(self, name: str):
        raise AssertionError(f"the fast engine fell back to the reference evaluator ({name})")


def run(source: bytes, engine: str, compiled_only: bool = False) -> tuple[bytes, int, int]:
    out = io.BytesIO()
    m, ws = Session(engine=engine, max_depth=200, console=Console(io.BytesIO(b""), out)).boot()
    if compiled_only:
        m.engine.ref = NoFallback()
    assert ws.append(source)
    err, cursor = ws.run(b"main")
    m.console.flush()
    return out.getvalue(), err, cursor


def test_the_module_walk_and_node_classes_agree():
    assert set(ast.node_classes()) == node_classes_of_module()


def test_every_node_class_is_a_statement_an_expression_or_structure():
    every = node_classes_of_module()
    assert every == STATEMENTS | EXPRESSIONS | set(STRUCTURE), "classify the new node class in this test"
    assert not STATEMENTS & EXPRESSIONS


@pytest.mark.parametrize("cls", [Evaluator, GibsonEvaluator], ids=lambda c: c.__name__)
def test_the_evaluators_visit_every_statement_and_expression(cls):
    table = visitors(cls)
    missing = sorted(c.__name__ for c in STATEMENTS | EXPRESSIONS if c not in table)
    assert not missing, f"{cls.__name__} has no visit_<Node> for {missing}"
    assert cls._visit == table  # the table built once, when the class was made


def test_the_programs_use_every_node_class():
    used = set().union(*(classes_in(src) for src in PROGRAMS.values()))
    missing = sorted(c.__name__ for c in node_classes_of_module() - used)
    assert not missing, f"add a program using {missing} to COMPILED (or REFERENCE_ONLY)"
    compiled = set().union(*(classes_in(src) for src in COMPILED.values()))
    assert node_classes_of_module() - compiled == set(FAST_FALLBACK)


@pytest.mark.parametrize("name", COMPILED)
def test_the_fast_engine_compiles_every_other_node(name):
    src = COMPILED[name]
    assert run(src, "fast", compiled_only=True) == run(src, "reference")


@pytest.mark.parametrize("name", REFERENCE_ONLY)
def test_the_engines_agree_where_the_fast_engine_falls_back(name):
    src = REFERENCE_ONLY[name]
    assert classes_in(src) & set(FAST_FALLBACK)
    assert run(src, "fast") == run(src, "reference")


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_views_show_every_node(name):
    src = PROGRAMS[name]
    assert stages.tokens(src).strip()
    dump = stages.ast_dump(src)
    shown = {word for line in dump.splitlines() for word in line.replace(":", " ").split()}
    missing = sorted(c.__name__ for c in classes_in(src) if c.__name__ not in shown)
    assert not missing, f"the ast dump does not show {missing}"
    output, err, _ = run(src, "reference")
    transcript = tracer.trace(src)
    assert transcript.startswith("entry | main\n")
    assert (f"err  {err}" in transcript) == bool(err)
    program_part = [line for line in transcript.splitlines()
                    if not re.match(r"\s*(\d+|entry|lib \d+) \| ", line) and "err  " not in line]
    assert "".join("".join(program_part).split()).startswith("".join(output.decode("latin-1").split()))
