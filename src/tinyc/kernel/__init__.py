"""The tiny-c Jupyter kernel (docs/kernel.md): ``python -m tinyc.kernel install`` registers it.

Needs the optional extra ``kernel`` (ipykernel, jupyter_client).  :mod:`.kernel` is the ipykernel wrapper
kernel, :mod:`.program` the tiny-c it drives, :mod:`.cells` what a cell holds, :mod:`.magics` its magics,
:mod:`.console` the program's output and input, :mod:`.install` the kernelspec.

The top layer: it may import every other subpackage (the shell's command table, the views, the machine,
the command line's options), and nothing imports it.
"""
