"""The console behind MC 1, 13 and 14 (tinyc.machine.console): bytes out in order, buffered, and the
last byte written remembered so that a command can end an unfinished line."""

import io

from tinyc.machine.console import Console


def test_put_and_write_keep_their_order_across_flushes():
    out = io.BytesIO()
    c = Console(io.BytesIO(), out)
    for k in range(10000):  # more than the buffer holds: flushed on the way
        c.put(65 + k % 26)
        if k % 1000 == 0:
            c.write(b"|")
    c.flush()
    expected = b"".join(bytes([65 + k % 26]) + (b"|" if k % 1000 == 0 else b"") for k in range(10000))
    assert out.getvalue() == expected


def test_last_is_the_last_byte_written_before_and_after_a_flush():
    c = Console(io.BytesIO(), io.BytesIO())
    assert c.last == b"\n"
    c.put(ord("x"))
    assert c.last == b"x"
    c.flush()
    assert c.last == b"x"
    c.write(b"ab\r\n")
    assert c.last == b"\n"
    c.write(b"")
    assert c.last == b"\n"


def test_strip_cr_drops_carriage_returns_put_one_by_one():
    out = io.BytesIO()
    c = Console(io.BytesIO(), out, strip_cr=True)
    for b in b"a\r\nb":
        c.put(b)
    c.flush()
    assert out.getvalue() == b"a\nb"
