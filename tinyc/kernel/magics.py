"""The kernel's magics: a cell's leading lines that start with ``%`` (docs/kernel.md).

``%dialect gibson|pc``, ``%engine reference|fast``, ``%input LINE`` (one input line for the cell's run),
``%trace [STATEMENT]``, ``%step [STATEMENT]`` (the stepper, docs/stepper.md), ``%ast [STATEMENT]``, ``%tokens [STATEMENT]``, ``%link``, ``%debug [STATEMENT]``,
``%allow [read PATH|write PATH|write-code|files-anywhere|system|plugins]`` (the command line's
``--allow-*``: each asked of the person at the front end first, since a shared notebook's cells are
someone else's code; docs/security.md).
A bad magic or argument raises :class:`~tinyc.kernel.program.CellError` saying what is accepted.
"""

from __future__ import annotations

from typing import Callable

from ..driver.dialect import names as dialect_names
from .program import ENGINES, CellError, Program

USAGE = {
    "dialect": "%dialect pc|gibson",
    "engine": "%engine reference|fast",
    "input": "%input LINE",
    "trace": "%trace [STATEMENT]",
    "step": "%step [STATEMENT]",
    "ast": "%ast [STATEMENT]",
    "tokens": "%tokens [STATEMENT]",
    "link": "%link",
    "debug": "%debug [STATEMENT]",
    "allow": "%allow [read PATH|write PATH|write-code|files-anywhere|system|plugins]",
}
ACCEPTED = ", ".join(USAGE.values())


def _choice(name: str, value: str, choices: tuple[str, ...], now: str) -> str | None:
    """The choice ``value`` made of ``choices``; None (say what is in use) when none is given."""
    if not value:
        return None
    if value not in choices:
        raise CellError(f"%{name} {value}: accepted: {USAGE[name]} (now {now})")
    return value


def obey(line: str, program: Program, say: Callable[[str], None],
         show_html: Callable[[str], None] | None = None) -> None:
    """Obey one magic line (``%name args``) against ``program``; ``say`` shows text, ``show_html`` HTML (the
    stepper of ``%step``; None: its page is not shown, only its status)."""
    name, _, rest = line[1:].partition(" ")
    rest = rest.strip()
    if name not in USAGE:
        raise CellError(f"unknown magic %{name}: the kernel's magics are {ACCEPTED}")
    if name == "dialect":
        chosen = _choice(name, rest, tuple(dialect_names()), program.dialect)
        if chosen is not None:
            program.set_dialect(chosen)
        say(f"dialect {program.dialect}\n")
    elif name == "engine":
        chosen = _choice(name, rest, ENGINES, program.engine)
        if chosen is not None:
            program.set_engine(chosen)
        say(f"engine {program.engine}\n")
    elif name == "input":
        program.console.queued.append(rest.encode())
    elif name == "link" and rest:
        raise CellError(f"%link takes no statement: accepted: {USAGE['link']}")
    elif name in ("ast", "tokens", "link"):
        say(program.view(name, rest or None))
    elif name == "trace":
        say(program.trace(rest or "main"))
    elif name == "debug":
        program.debug(rest.encode() or b"main")
    elif name == "step":
        from ..debug.stepper_page import inline
        trace = program.step(rest or "main")
        if show_html is not None:
            show_html(inline(trace))
        say(f"{len(trace.steps)} steps, {trace.status}" + (f": {trace.data['message']}" if trace.data["message"] else "")
            + "\n" + (trace.data["report"] if trace.status == "error" else ""))
    elif name == "allow":
        allow(rest, program, say)


def allow(rest: str, program: Program, say: Callable[[str], None]) -> None:
    """``%allow WORD [PATH]``: widen the kernel's sandbox policy as ``--allow-WORD [PATH]`` does, once the
    front end's person answers ``y`` to the question (Jupyter's input request; never a queued ``%input``
    line, which the notebook itself wrote).  Alone: what is allowed now.  Raises CellError for a word it
    does not know, a front end that sends no input, or a no."""
    policy = program.policy
    if not rest:
        given = policy.describe()
        say("allowed: " + " ".join(given) + "\n" if given else
            "allowed: the default sandbox (files in the current directory tree; see docs/security.md)\n")
        return
    word, _, path = rest.partition(" ")
    path = path.strip()
    if word not in policy.GRANTS or bool(policy.GRANTS[word]) != bool(path):
        raise CellError(f"%allow {rest}: accepted: {USAGE['allow']}")
    option = f"--allow-{word}" + (f" {path}" if path else "")
    from .console import NoInput
    program.console.flush()  # what the cell said before comes before the question
    try:
        answer = program.console.ask(f"this notebook asks for {option} (docs/security.md): allow it? [y/N] ")
    except (NoInput, EOFError):
        raise CellError(f"%allow {rest}: not allowed: this front end sends no input, so nobody could say yes "
                        f"(run the cell in a notebook that takes input)") from None
    if answer.strip().lower() not in ("y", "yes"):
        raise CellError(f"%allow {rest}: not allowed (the answer was not y)")
    policy.grant(word, path or None)
    say(f"allowed: {option}\n")


def names() -> list[str]:
    """The magics' names with their ``%``, for completion."""
    return ["%" + name for name in USAGE]
