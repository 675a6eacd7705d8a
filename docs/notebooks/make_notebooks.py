"""Write the notebooks of docs/notebooks (tiny-c kernel) from the cells below, run them, save them with
their outputs.  tests/kernel/test_kernel_notebooks.py runs them again and checks what they print.

    python -m tinyc.kernel install --user     # once: the kernel the notebooks name
    python docs/notebooks/make_notebooks.py   # rewrite tour.ipynb and bulls-and-cows.ipynb
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
KERNELSPEC = {"name": "tinyc", "display_name": "tiny-c", "language": "tinyc"}
LANGUAGE = {"name": "tinyc", "file_extension": ".tc", "pygments_lexer": "tinyc", "mimetype": "text/x-tinyc"}

SQUARES = """\
/* squares: one function fills an array, another sums it (docs/tour/squares.tc)
int sq(3)

fill [
  int k
  while(k<=3) [ sq(k)=k*k; k=k+1 ]
]

/* the sum of the squares in sq
total [
  int i, s
  for(i=0; i<=3; ++i) s=s+sq(i)
  return s
]

main [
  fill
  pl "0+1+4+9 ="
  pn total
]"""

TOUR = [
    ("md", "# A tour of tiny-c in Jupyter\n\nThis notebook runs on the tiny-c kernel "
           "(`python -m tinyc.kernel install --user`, docs/kernel.md). Its cells are tiny-c. A cell of "
           "definitions is added to the program, as the `tc>` shell's buffer holds it:"),
    ("code", SQUARES),
    ("md", "A cell that starts with `.` is a command of the `tc>` shell; `.main` runs the statement `main` "
           "against the program:"),
    ("code", ".main"),
    ("md", "A bare statement runs too, with the program's functions and the library's (`pn`, `pl`, `ps`...):"),
    ("code", "fill; pn total * 10"),
    ("md", "Defining a function again replaces it, and the kernel says so:"),
    ("code", "total [\n  int i, s\n  while i <= 3 [ s = s + sq(i); i = i + 1 ]\n  return s\n]\n.main"),
    ("md", "The shell's commands work on the program buffer: `.1` goes to line 1 and prints it, `.p 4` "
           "prints four lines from there (`.h` lists the commands):"),
    ("code", ".1\n.p 4"),
    ("md", "## The stages\n\nThe same views as `tinyc tokens`, `tinyc ast`, `tinyc link` and `tinyc trace`, "
           "as kernel magics, of the program or of a statement typed against it:"),
    ("code", "%tokens pn 2+3*4"),
    ("code", "%ast pn 2+3*4"),
    ("code", "%link"),
    ("code", "%trace main"),
    ("md", "An error is reported as the shell reports it: the line, and a `<` just after the point where "
           "the interpreter stopped (the kernel goes on):"),
    ("error", "pn 2+"),
    ("md", "## Engines, input, the debugger, the other dialect\n\nThe kernel runs on the fast engine, which "
           "compiles the program to Python, as `tinyc` does; `%engine reference` runs the reference evaluator. "
           "Both print the same bytes:"),
    ("code", "%engine reference\n.main"),
    ("code", "%engine fast"),
    ("md", "A program's input is asked of you in Jupyter (an input box). A notebook run by a tool has no "
           "one to ask: `%input` lines give the input first."),
    ("code", 'ask [ int n; ps "a number? "; n = gn; pn n*2 ]'),
    ("code", "%input 21\n.ask"),
    ("md", "`%debug` runs a statement under the debugger; its commands are asked like input (here "
           "given with `%input`): a breakpoint in `total`, run to it, the backtrace, an element of `sq`, "
           "continue."),
    ("code", "%input b total\n%input r\n%input bt\n%input p sq(2)\n%input c\n%debug main"),
    ("md", "`%dialect gibson` switches to Tom Gibson's dialect (its own program, starting with the "
           "`#include pps/library.tc` line its programs need); `%dialect pc` comes back to this one."),
    ("code", '%dialect gibson\nmain [\n  int i\n  while i < 3 [ i = i + 1; printf "%d squared is %d%c", i, i*i, 10 ]\n]'),
    ("code", ".main"),
    ("code", "%dialect pc\n.main"),
]

BC_SCORES = ["777", "10", "11", "10", "11", "8", "8", "0"]

BULLS_AND_COWS = [
    ("md", "# Bulls and Cows: bc.tc and bca.tc\n\nLee Bradley's two programs from seed 004 "
           "(docs/programs.md), in the tiny-c kernel. `.r bc.tc` reads the copy shipped with tinyc into "
           "the program buffer and prints its byte count and the status line:"),
    ("code", ".r bc.tc"),
    ("md", "`.bullcow` plays: it asks for a random number, then guesses; each guess is scored with a code "
           "from the table. In Jupyter you type them in the input box; here they are given with `%input` "
           "(the game of examples/bc-session.txt, seed 777):"),
    ("code", "\n".join(f"%input {s}" for s in BC_SCORES) + "\n.bullcow"),
    ("md", "`.k` empties the program buffer; bca.tc plays many games against itself and prints how many "
           "tries each took (seed 004's table for 3141 and 300 games, examples/bca-run.txt):"),
    ("code", ".k\n.r bca.tc"),
    ("code", "%input 3141\n%input 300\n.bca"),
]


def notebook(cells: list[tuple[str, str]]) -> nbformat.NotebookNode:
    """The notebook of ``cells``: (kind, source), kind md, code, or error (a code cell that raises)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata["language_info"] = LANGUAGE
    for kind, source in cells:
        if kind == "md":
            nb.cells.append(nbformat.v4.new_markdown_cell(source))
        else:
            cell = nbformat.v4.new_code_cell(source)
            if kind == "error":
                cell.metadata["tags"] = ["raises-exception"]
            nb.cells.append(cell)
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{k}"  # stable ids: a rewrite changes only what changed
    return nb


NOTEBOOKS = {"tour.ipynb": TOUR, "bulls-and-cows.ipynb": BULLS_AND_COWS}


def coalesced(outputs: list) -> list:
    """Consecutive stream outputs of one stream as one (how the output was split in messages depends on
    timing; the text does not)."""
    out: list = []
    for o in outputs:
        if o.output_type == "stream" and out and out[-1].output_type == "stream" and out[-1].name == o.name:
            out[-1].text += o.text
        else:
            out.append(o)
    return out


def main() -> int:
    for name, cells in NOTEBOOKS.items():
        nb = notebook(cells)
        NotebookClient(nb, timeout=300, kernel_name="tinyc", record_timing=False,
                       resources={"metadata": {"path": str(HERE)}}).execute()
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = coalesced(cell.outputs)
        nbformat.write(nb, HERE / name)
        print(f"wrote {HERE / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
