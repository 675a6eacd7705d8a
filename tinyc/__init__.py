"""tinyc: a faithful, fast and teachable reimplementation of tiny-c in Python."""
__version__ = "0.1.0"
