"""The command line (``tinyc`` and its commands) and the IPython ``%%tinyc`` magics, which share its
options.  The top layer: it may import every other subpackage, and nothing imports it.
"""
