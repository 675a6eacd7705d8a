"""Watching a run: the statement tracer, the debugger (breakpoints, watchpoints, stepping, frames) and its
Debug Adapter Protocol server, for both engines and both dialects.

May import: :mod:`tinyc.views` and everything below it; not :mod:`tinyc.shell` or :mod:`tinyc.cli`.
``tinyc.debug.trace(...)`` is the tracer's Python API.
"""
from .tracer import trace

__all__ = ["trace"]
