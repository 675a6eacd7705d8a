"""The command line (``tinyc`` and its commands) and the IPython ``%%tinyc`` magics, which share its
options.  It sits above the shell, the views and the driver; only the dialect packages and the
Jupyter kernel (the layers above it) import it, and ``tinyc`` itself lazily, for ``%load_ext tinyc``.
"""
