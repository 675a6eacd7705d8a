"""The tiny-c Jupyter kernel (docs/kernel.md): ``python -m tinyc.kernel install`` registers it.

Needs the optional extra ``kernel`` (ipykernel, jupyter_client).  :mod:`tinyc.kernel.kernel` is the
ipykernel wrapper kernel, :mod:`tinyc.kernel.program` the tiny-c it drives (through a Session),
:mod:`tinyc.kernel.cells` what a cell holds, :mod:`tinyc.kernel.magics` its magics,
:mod:`tinyc.kernel.console` the program's output and input, :mod:`tinyc.kernel.install` the kernelspec.

The top layer: it may import every other subpackage (the Session, the shell's command table, the views),
and nothing imports it.
"""
