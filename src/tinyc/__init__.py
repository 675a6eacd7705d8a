"""tinyc: a faithful, fast and teachable reimplementation of tiny-c in Python."""
__version__ = "0.1.0"


def load_ipython_extension(ipython):
    """``%load_ext tinyc`` in IPython or Jupyter: the ``%%tinyc`` magics of :mod:`tinyc.cli.notebook`."""
    from .cli.notebook import load_ipython_extension as load
    load(ipython)
