"""``python -m tinyc.kernel install [--user|--sys-prefix|--prefix P]``: the kernelspec named ``tinyc``.

The kernelspec runs this Python (``sys.executable -P -m tinyc.kernel -f CONNECTION_FILE``), so the kernel
is the tinyc installed where the command ran.  ``-P`` keeps the notebook's directory (where Jupyter starts
the kernel, and where a notebook's program writes its files) off ``sys.path``: a ``lark.py`` or
``cairocffi.py`` there is never imported by the kernel (issue 35, docs/security.md). Jupyter interrupts it with SIGINT (``interrupt_mode``
``signal``), which stops a running program with ``stopped`` and keeps the program.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

NAME = "tinyc"


def spec() -> dict:
    """The kernel.json of the tiny-c kernel."""
    return {
        "argv": [sys.executable, "-P", "-m", "tinyc.kernel", "-f", "{connection_file}"],
        "display_name": "tiny-c",
        "language": "tinyc",
        "interrupt_mode": "signal",
        "metadata": {"debugger": False},
    }


def install(user: bool = False, prefix: str | None = None) -> str:
    """Install the kernelspec (``user``: in the user's Jupyter data directory; ``prefix``: under
    ``PREFIX/share/jupyter/kernels``; neither: the system's).  Returns the directory written.
    Raises OSError when that directory cannot be written."""
    from jupyter_client.kernelspec import KernelSpecManager
    with tempfile.TemporaryDirectory(prefix="tinyc-kernel-") as tmp:
        (Path(tmp) / "kernel.json").write_text(json.dumps(spec(), indent=2) + "\n")
        return KernelSpecManager().install_kernel_spec(tmp, NAME, user=user, prefix=prefix)


def main(argv: list[str]) -> int:
    """The ``install`` command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tinyc.kernel install",
                                     description="Register the tiny-c Jupyter kernel (kernelspec 'tinyc').")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for this user (the default)")
    where.add_argument("--sys-prefix", action="store_true", help=f"in this Python's prefix ({sys.prefix})")
    where.add_argument("--prefix", metavar="P", help="under P/share/jupyter/kernels")
    args = parser.parse_args(argv)
    prefix = sys.prefix if args.sys_prefix else args.prefix
    try:
        path = install(user=prefix is None, prefix=prefix)
    except ImportError:
        print("tinyc: the kernel needs ipykernel and jupyter_client: install the extra kernel "
              "(pip install '.[test,kernel]' in the checkout)", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"tinyc: cannot install the kernelspec: {e}", file=sys.stderr)
        return 1
    print(f"installed the tiny-c kernel (kernelspec '{NAME}') in {path}")
    return 0
