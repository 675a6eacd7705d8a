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


def test_text_streams_without_a_buffer_are_written_and_read_as_utf8(monkeypatch):
    """ipykernel's OutStream and io.StringIO have no ``.buffer``: the default console still works there."""
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", io.StringIO("\u00e9t\u00e9\nx"))
    c = Console()
    word = "h\u00e9llo \u20ac".encode()
    c.write(word[:-1])
    c.flush()  # the euro sign is split between two flushes: it is kept whole
    c.write(word[-1:] + b"\xff")
    c.flush()
    assert out.getvalue() == "h\u00e9llo \u20ac\ufffd"
    assert c.read_char() == 0xC3 and c.read_char() == 0xA9
    assert c.read_line() == "t\u00e9".encode() and c.read_char() == ord("x") and c.read_char() is None


def test_the_stage_views_work_with_a_text_stdout(monkeypatch):
    from tinyc.views import stages
    monkeypatch.setattr("sys.stdout", io.StringIO())
    monkeypatch.setattr("sys.stdin", None)
    loaded = stages.load(b"twice int n [ return n*2 ]\n")
    assert "Function twice" in stages.ast_dump(loaded)
