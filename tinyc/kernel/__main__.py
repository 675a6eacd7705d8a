"""``python -m tinyc.kernel install [...]`` registers the kernel; ``python -m tinyc.kernel -f FILE``
(what the kernelspec runs, also ``tinyc-kernel``) starts it."""

from __future__ import annotations

import os
import sys

HELP = """usage: python -m tinyc.kernel install [--user | --sys-prefix | --prefix P]
       python -m tinyc.kernel -f CONNECTION_FILE     (what Jupyter runs: the tiny-c kernel; also tinyc-kernel)

The tiny-c Jupyter kernel (docs/kernel.md).  install registers its kernelspec (python -m tinyc.kernel
install --help lists the options); then pick "tiny-c" in Jupyter, or run jupyter console --kernel tinyc.
Started by Jupyter, it takes ipykernel's options: python -m tinyc.kernel --help-all lists them."""


def quiet_debugger() -> None:
    """Switch debugpy's file validation off unless the environment asks for it: debugpy (which ipykernel
    imports) warns on stderr that frozen modules may miss breakpoints, on the first cell in jupyter console,
    and the kernel debugs tiny-c, not Python (issue 39)."""
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")


def main(argv: list[str] | None = None) -> int:
    """Install the kernelspec (``install ...``) or run the kernel (any other arguments: ipykernel's)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["install"]:
        from .install import main as install
        return install(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):  # tinyc's own help; IPython's is --help-all
        print(HELP)
        return 0
    quiet_debugger()
    try:
        from ipykernel.kernelapp import IPKernelApp
    except ImportError:
        print("tinyc: the kernel needs ipykernel and jupyter_client: install the extra kernel "
              "(pip install '.[test,kernel]' in the checkout)", file=sys.stderr)
        return 1
    from .kernel import TinyCKernel
    # ipykernel puts '' (the notebook's directory) first on sys.path unless Python runs with -P: the
    # kernelspec gives -P, and ignore_cwd covers a kernel started without it (issue 35)
    IPKernelApp.launch_instance(argv=[*argv, "--IPKernelApp.ignore_cwd=True"], kernel_class=TinyCKernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
