"""tinyc: a faithful, fast and teachable reimplementation of tiny-c in Python.

:class:`tinyc.Session` is the one way in (:mod:`tinyc.driver.session`)::

    import tinyc
    session = tinyc.Session("pc", "fast")
    session.load_text(b'main [ pl "hello" ]\\n')
    session.run("main")            # (error number, cursor): (0, 0)
"""
__version__ = "0.1.0"
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from .driver.session import Session

__all__ = ["Session", "__version__", "load_ipython_extension"]


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
