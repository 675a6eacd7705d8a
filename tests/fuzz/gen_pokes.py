"""Programs that write bytes into their own text before they call its functions (issue 35 item 1).

The program text lives in the flat memory the program writes, so a program can change the bytes of a
function it has not called yet.  Each mutant holds functions whose strings and comments carry a line of
Python (:data:`PAYLOADS`) behind a marker byte, a helper that stores through an unchecked ``char s(0)``
parameter, and a ``main`` that pokes bytes (mostly those that end a line somewhere: LF, CR, VT, FF, FS,
GS, RS, NEL) into the text of the functions, through the helper, MC 16 (tiny-c/PC) and MC 7, between
calls of them.  A string literal ``"Q"`` in each poking statement is its own anchor: its value is its
address, so ``"Q"+D`` reaches the byte ``D`` after it; the generator knows the layout of the text it
writes.  :func:`exploit` is the fixed form the tests use; :func:`program` the random mutants.
"""

from __future__ import annotations

import random

# what a payload does if it ever runs: import a module that does not exist, write a file outside the run's
# directory, start a process; each is a finding of tests/fuzz/oracle.py
PAYLOADS = ["__import__('tinyc_injected_canary')", "open('../tinyc-injected-file', 'w')",
            "__import__('os').system('true')", "__import__('builtins').TINYC_INJECTED = 1"]
BREAKS = [10, 11, 12, 13, 28, 29, 30, 133]  # the bytes that end a line for Python or str.splitlines
OTHER = [0, 9, 34, 35, 39, 47, 92, 127, 255]  # a NUL, a tab, quotes, #, /, a backslash ...

HELPER = "poke char s(0); int k, v [\n  s(k) = v\n]\n"


def _payload(r: random.Random) -> str:
    return " " * r.choice([0, 4, 8, 12, 16]) + r.choice(PAYLOADS) + " #"


def _templates(i: int, payload: str) -> list[tuple[str, str]]:
    """(function text, a call of it) of each form that puts a payload where the generator used to copy
    text into its comments: a statement's first line, a string, a comment after an if's ``[``, the
    recursive function whose fast version (``u_NAME``) was split with ``str.splitlines``."""
    t = f"t{i}"
    return [
        (f'{t} [\n  pl "X{payload}"\n]\n', t),
        (f"{t} int n [\n  if (n < 2) [ /* X{payload}\n    return 1\n  ]\n  return {t}(n-1)+1\n]\n", f"pn {t}(5)"),
        (f'{t} int n [\n  if (n) [ pl "X{payload}"\n  ]\n  return n\n]\n', f"{t}(1)"),
        (f"{t} int a, b [\n  int k, s\n  while (k < 3) [ s = s + a*b+1 /* X{payload}\n    k = k + 1\n  ]\n"
         f"  return s\n]\n", f"pn {t}(2, 3)"),
    ]


def _number(d: int) -> str:
    """``+D`` or ``-D`` in a fixed width, so that the text after it keeps its place whatever D is."""
    return f"{'-' if d < 0 else '+'}{abs(d):8d}"


def _assemble(head: str, funcs: list[str], ops: list) -> bytes:
    """The program: ``head``, the functions, the helper and a ``main`` of ``ops``, each a call (str) or a
    poke ``(how, target offset, value)``, with the anchors' distances filled in."""
    text = head + "".join(funcs) + HELPER
    lines = []
    for op in ops:
        if isinstance(op, str):
            lines.append(op)
        elif op[0] == "param":
            lines.append(('poke "Q", ', op[1], f", {op[2]}"))
        elif op[0] == "mc16":
            lines.append(('MC "Q"', op[1], f", 1, {op[2]}, 16"))
        else:  # mc7: the block of op[2] bytes at the target moves by op[3] (copies text over text)
            lines.append(('MC "Q"', op[1], f', "Q"{{}}, {op[3]}, 7', op[2]))
    out = text + "main [\n"
    for ln in lines:
        if isinstance(ln, str):
            out += f"  {ln}\n"
            continue
        q = len(out) + 2 + ln[0].index("Q")  # the address of the anchor's Q, relative to the text
        line = f"  {ln[0]}{_number(ln[1] - q)}{ln[2]}"
        if len(ln) > 3:  # movebl's last: the second anchor is the first's (both strings hold one Q)
            q2 = len(out) + line.index('"Q"{}') + 1
            line = line.replace("{}", _number(ln[1] + ln[3] - 1 - q2))
        out += line + "\n"
    return (out + "]\n").encode("latin-1")


def exploit(byte: int, payload: str, form: int = 0, how: str = "param") -> bytes:
    """A program that writes ``byte`` over the marker before ``payload`` in function ``t0`` (template
    ``form`` of :func:`_templates`) through ``how`` ("param" or "mc16"), then calls ``t0``."""
    fn, call = _templates(0, payload)[form]
    return _assemble("", [fn], [(how, fn.index("X"), byte), call])


def program(r: random.Random, gibson: bool = False) -> bytes:
    """A random mutant: two to five functions of :func:`_templates` (and sometimes a generated program's
    functions), pokes of mostly line-ending bytes at their markers or anywhere in the text, calls between
    them (some functions twice: their code is already made when the second call comes)."""
    head = "#include pps/library.tc\n" if gibson else ""
    funcs, calls, marks = [], [], []
    for i in range(r.randint(2, 5)):
        fn, call = r.choice(_templates(i, _payload(r)))
        marks.append(len(head) + sum(map(len, funcs)) + fn.index("X"))
        funcs.append(fn)
        calls.append(call)
    size = len(head) + sum(map(len, funcs)) + len(HELPER)
    hows = ["param", "mc7"] if gibson else ["param", "mc16", "mc7"]
    ops: list = []
    pending = calls + r.sample(calls, r.randint(0, len(calls)))
    r.shuffle(pending)
    for call in pending:
        for _ in range(r.choice([0, 1, 1, 2, 3])):
            # the marker of the function called next (half the time), of any function, or any byte
            u = r.random()
            target = marks[calls.index(call)] if u < 0.4 else r.choice(marks) if u < 0.7 \
                else r.randrange(len(head), size)
            how = r.choice(hows)
            if how == "mc7":
                n = r.randint(1, 4)
                ops.append((how, max(len(head), target - r.randint(0, 3)), n, r.choice([-2, -1, 1, 2, 3])))
            else:
                byte = r.choice(BREAKS) if r.random() < 0.7 else r.choice(OTHER) if r.random() < 0.3 \
                    else r.randrange(256)
                ops.append((how, target, byte))
        ops.append(call)
    return _assemble(head, funcs, ops)


def every_byte(values, gibson: bool = False, payload: str = PAYLOADS[-1]) -> bytes:
    """A program with, for each byte of ``values``, a function of each form of :func:`_templates` (payloads
    at the indentations that reached Python before issue 35: 8, 4, 12 and 16 spaces), whose ``main``
    writes the byte over each function's marker just before it first calls it (through the ``char``
    parameter; MC 16 for odd bytes in tiny-c/PC), and then calls them all once more."""
    head = "#include pps/library.tc\n" if gibson else ""
    funcs, ops, calls = [], [], []
    for byte in values:
        for form, ind in enumerate((8, 4, 12, 16)):
            fn, call = _templates(len(funcs), " " * ind + payload + " #")[form]
            how = "mc16" if byte % 2 and not gibson else "param"
            ops += [(how, len(head) + sum(map(len, funcs)) + fn.index("X"), byte), call]
            funcs.append(fn)
            calls.append(call)
    return _assemble(head, funcs, ops + calls)
