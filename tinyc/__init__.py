"""tinyc: a faithful, fast and teachable reimplementation of tiny-c in Python.

:class:`tinyc.Session` is the one way in (:mod:`tinyc.driver.session`)::

    import tinyc
    session = tinyc.Session("pc", "fast")
    session.load_text(b'main [ pl "hello" ]\\n')
    session.run("main")            # (error number, cursor): (0, 0)
"""
__version__ = "0.1.0"
import sys as _sys
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from .driver.session import Session

__all__ = ["Session", "__version__", "load_ipython_extension"]


# `python -m tinyc ...` (and `-m tinyc.kernel`) put the current directory first on sys.path: drop it before
# anything that directory could shadow is imported (lark, cairocffi, prompt_toolkit...).  Python sets
# sys.argv[0] to "-m" while it imports the package of the module it runs; `python -P -m tinyc`
# (sys.flags.safe_path) never adds it, and is the safe form (docs/security.md).  The package itself was found
# before this runs: run inside a checkout without an install, `python -m tinyc` finds the checkout's.
if _sys.argv[:1] == ["-m"] and not _sys.flags.safe_path and _sys.path:
    import os as _os
    if _sys.path[0] in ("", _os.getcwd()):
        del _sys.path[0]


def __getattr__(name: str):
    """``tinyc.Session``, imported when first asked for (the solver imports :mod:`tinyc` and none of the interpreter)."""
    if name == "Session":
        from .driver.session import Session
        return Session
    raise AttributeError(f"module 'tinyc' has no attribute {name!r}")


def load_ipython_extension(ipython):
    """``%load_ext tinyc`` in IPython or Jupyter: the ``%%tinyc`` magics of :mod:`tinyc.cli.notebook`."""
    from .cli.notebook import load_ipython_extension as load
    load(ipython)
