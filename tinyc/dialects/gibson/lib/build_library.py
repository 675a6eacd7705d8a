"""Pads library.src into library.tc with the original's layout (python build_library.py).

exit's line must be line 285 at byte 5178 and the file 5480 bytes long, so that error reports in
the library (EXIT) and the application's offsets (pr[5499] for its first byte) come out as the
original's.  library.src holds the code with the markers @@PAD@@ and @@TAIL@@."""

from pathlib import Path

HERE = Path(__file__).parent
EXIT_AT, EXIT_LINE, SIZE = 5178, 285, 5480
GS_STOP, GS_LINE = 862, 45  # where the original's gs stops at the end of the input (SYMERR), G 4.3


def build() -> bytes:
    s = (HERE / "library.src").read_text()
    head, rest = s.split("@@PAD@@\n")
    body, _ = rest.split("@@TAIL@@\n")
    n1 = EXIT_AT - len(head.encode()) - (EXIT_LINE - 1 - head.count("\n"))
    lines = ["//"] * (EXIT_LINE - 1 - head.count("\n"))
    lines[0] += " layout: padded so that reports give the original's positions "
    lines[0] += "-" * (n1 - sum(len(x) for x in lines))
    n2 = SIZE - EXIT_AT - len(body.encode()) - 1
    tail = "// end of library.tc "
    out = head + "\n".join(lines) + "\n" + body + tail + "-" * (n2 - len(tail)) + "\n"
    data = out.encode()
    assert len(data) == SIZE and data.index(b"exit [ MC 108 ]") == EXIT_AT, (len(data), data.index(b"exit ["))
    assert data[:EXIT_AT].count(b"\n") == EXIT_LINE - 1
    stop = data.index(b"(c == 10) + (c == 13) break") + 2
    assert stop == GS_STOP and data[:stop].count(b"\n") == GS_LINE - 1, stop
    return data


if __name__ == "__main__":
    (HERE / "library.tc").write_bytes(build())
