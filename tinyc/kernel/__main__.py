"""``python -m tinyc.kernel install [...]`` registers the kernel; ``python -m tinyc.kernel -f FILE``
(what the kernelspec runs, also ``tinyc-kernel``) starts it."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Install the kernelspec (``install ...``) or run the kernel (any other arguments: ipykernel's)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["install"]:
        from .install import main as install
        return install(argv[1:])
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
