"""The Debug Adapter Protocol's framing (``tinyc dap``, :mod:`tinyc.debug.dap`): each message is a header
``Content-Length: N`` (other header lines are allowed and ignored), a blank line (CR LF), then N bytes of
UTF-8 JSON.  No small well-kept Python library does only this, so it is written here (about 40 lines).
"""

from __future__ import annotations

import json
from typing import Any, BinaryIO

MAX_BODY = 16 << 20  # a body larger than this is refused as malformed (a client never needs it)


class Malformed(Exception):
    """A message that cannot be read: a bad header or a body that is not a JSON object."""


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    """The next message from ``stream``; None at the end of the input.

    Raises Malformed for a header without a valid Content-Length or a body that is not a JSON object
    (the body is consumed, so the next message can still be read)."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.rstrip(b"\r\n")
        if not line:
            if length is None:
                continue  # stray blank lines between messages
            break
        name, colon, value = line.partition(b":")
        if not colon:
            raise Malformed(f"bad header line {line[:60]!r}")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise Malformed(f"bad Content-Length {value.strip()[:20]!r}") from None
            if not 0 <= length <= MAX_BODY:
                raise Malformed(f"Content-Length {length} out of range")
    body = stream.read(length)
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Malformed(f"the body is not JSON ({e})") from None
    if not isinstance(message, dict):
        raise Malformed("the body is not a JSON object")
    return message


def write_message(stream: BinaryIO, message: dict[str, Any]) -> None:
    """``message`` framed onto ``stream``, flushed."""
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()
