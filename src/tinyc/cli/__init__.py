"""The command line (``tinyc`` and its commands) and the IPython ``%%tinyc`` magics, which share its
options.  It may import every other subpackage; only the Jupyter kernel (:mod:`tinyc.kernel`, the layer
above) imports it, for the machine options.
"""
