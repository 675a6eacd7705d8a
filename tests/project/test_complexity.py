"""No function of the interpreter is too complex to read (issue 25): radon's cyclomatic complexity stays at 30
or under (ranks A to D) for every function and method of the installed package, the solver left out.

Measured with radon's API (``radon.complexity.cc_visit``) on each module's source, as ``radon cc`` does;
radon counts a closure apart from the function around it, so each closure is checked on its own.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit
from radon.visitors import Function

LIMIT = 30  # radon's rank E starts at 31


def _functions(blocks: list, outer: str = "") -> list[tuple[str, Function]]:
    """(qualified name, function) for every function and closure among radon's ``blocks`` (``cc_visit``
    lists the methods beside their class; a closure is counted apart from the function around it)."""
    found: list[tuple[str, Function]] = []
    for block in blocks:
        if isinstance(block, Function):
            name = outer + block.fullname
            found += [(name, block), *_functions(block.closures, name + ".")]
    return found


def too_complex(source: str, where: str) -> list[str]:
    """``where:line name complexity rank`` for each function of ``source`` above :data:`LIMIT`."""
    return [f"{where}:{f.lineno} {name} {f.complexity} {cc_rank(f.complexity)}"
            for name, f in _functions(cc_visit(source)) if f.complexity > LIMIT]


def _branches(n: int, indent: str) -> str:
    """A body of ``n`` if statements and a return: complexity ``n + 1``."""
    return "".join(f"{indent}if x == {k}:\n{indent}    return {k}\n" for k in range(n)) + f"{indent}return 0\n"


def test_the_check_finds_a_function_or_method_above_30_and_nothing_at_30():
    assert too_complex("def f(x):\n" + _branches(30, "    "), "m.py") == ["m.py:1 f 31 E"]
    assert too_complex("class C:\n    def g(self, x):\n" + _branches(30, "        "), "m.py") == ["m.py:2 C.g 31 E"]
    assert too_complex("def f(x):\n    def inner(x):\n" + _branches(30, "        ") + "    return inner\n",
                       "m.py") == ["m.py:2 f.inner 31 E"]
    assert too_complex("def f(x):\n" + _branches(29, "    "), "m.py") == []


def test_no_function_of_the_interpreter_is_above_complexity_30():
    import tinyc
    package = Path(tinyc.__file__).parent
    found = [line for p in sorted(package.rglob("*.py")) if p.relative_to(package).parts[0] != "solver"
             for line in too_complex(p.read_text(encoding="utf-8"), str(p.relative_to(package)))]
    assert not found, "functions of rank E or F (complexity over 30): split them\n" + "\n".join(found)
