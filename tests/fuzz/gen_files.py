"""tiny-c/PC programs that use the file calls (issue 24): the library's fopen, fread, fwrite, fclose,
readfile and writefile and the bare MC 3..6, with good and bad names, units, modes and ranges.  The runner
runs them in a fresh temporary directory (:func:`fuzz.runner.sandbox`), and every name is relative, so
what they write stays inside it."""

from __future__ import annotations

import random

FILE_NAMES = ['"f1.txt"', '"f2.txt"', '"sub/none.txt"', '""', '"."', "nm", '"f1.txt"']


def file_program(r: random.Random) -> str:
    """A main that opens, reads, writes and closes units (the library's fopen, fread, fwrite, fclose,
    readfile, writefile and the bare MC 3..6) with good and bad names, units, modes and ranges."""
    def unit():
        return r.choice(["1", "2", "3", "u", "0", "-1", "9", "100"])

    def stmt():
        k = r.randrange(9)
        name = r.choice(FILE_NAMES)
        if k == 0:
            return f"pn fopen({r.choice(['1', '2', '0', '-1', '3'])},{name},{r.choice(['0', '10', '512', '-5'])},{unit()})"
        if k == 1:
            return f"pn fread(b,{unit()}); ps b"
        if k == 2:
            return f"pn fwrite(b,b+{r.randint(-3, 40)},{unit()})"
        if k == 3:
            return f"pn fclose({unit()})"
        if k == 4:
            return f"pn writefile({name},b,b+{r.randint(-2, 700)},{unit()})"
        if k == 5:
            return f"pn readfile({name},b,b+{r.randint(-2, 700)},{unit()}); ps b"
        if k == 6:
            return r.choice(['strcpy b,"some text\nfor the file"', "b(0)=0", "pn strlen(b)", 'strcpy nm,"f2.txt"'])
        if k == 7:
            return f"pn MC {r.choice(['1,nm,0', '2,nm,10', 'b', 'b,b+5', ''])}{',' if r.random() < 0.8 else ''}{unit()},{r.choice([3, 4, 5, 6])}"
        return f"u={r.choice(['1', '2', '3', '0', '-2'])}"
    body = "\n ".join(stmt() for _ in range(r.randint(2, 12)))
    return f'main [\n char b(700), nm(20); int u\n strcpy nm,"f3.txt"; u=2\n {body}\n]\n'
