"""urldownloadpi (Lee Bradley): it downloaded a URL to a file.  tinyc lets no program reach the network, so
loading this plug-in is refused with a message instead."""

from __future__ import annotations

REFUSED = ("it downloads from the network, which tinyc does not let a program reach "
           "(no network plug-in is shipped)")
MACHINE_CALLS: dict = {}
