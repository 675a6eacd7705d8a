"""The notebooks of docs/notebooks run by nbclient on the tiny-c kernel (issue 28 part 2): the kernelspec
installed into a temporary prefix, each notebook executed as Jupyter would, its outputs checked, and the
outputs saved in the notebook the same as a fresh run's (docs/notebooks/make_notebooks.py rewrites them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[2] / "docs" / "notebooks"


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> KernelSpecManager:
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run([sys.executable, "-P", "-m", "tinyc.kernel", "install", "--prefix", str(prefix)], check=True,
                   capture_output=True, timeout=120)
    return KernelSpecManager(kernel_dirs=[str(prefix / "share/jupyter/kernels")], ensure_native_kernel=False)


def texts(cell) -> str:
    """A code cell's output as text: its streams, then an error's traceback."""
    out = "".join(o.get("text", "") for o in cell.get("outputs", []) if o["output_type"] == "stream")
    return out + "".join("\n".join(o["traceback"]) for o in cell.get("outputs", []) if o["output_type"] == "error")


def run(name: str, specs: KernelSpecManager) -> tuple[list, list]:
    """The code cells of notebook ``name`` as stored, and as a fresh run leaves them."""
    stored = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert stored.metadata.kernelspec.name == "tinyc"
    fresh = nbformat.read(NOTEBOOKS / name, as_version=4)
    km = KernelManager(kernel_name="tinyc", kernel_spec_manager=specs)
    nbclient.NotebookClient(fresh, km=km, timeout=120, startup_timeout=120,
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    code = [c for c in stored.cells if c.cell_type == "code"]
    return code, [c for c in fresh.cells if c.cell_type == "code"]


def test_the_tour(specs):
    stored, fresh = run("tour.ipynb", specs)
    out = [texts(c) for c in fresh]
    assert out == [texts(c) for c in stored]  # the saved outputs are a fresh run's
    whole = "\n".join(out)
    assert "0+1+4+9 = 14" in whole and "total: the earlier definition is replaced" in whole
    assert " 0 --- err  9\npn 2+\n     <" in whole
    assert "call fill()" in whole and "FNAME" in whole and "BinOp" in whole
    assert "a number? 21\n 42" in whole and "total() at line" in whole
    assert "3 squared is 9" in whole


def test_bulls_and_cows(specs):
    stored, fresh = run("bulls-and-cows.ipynb", specs)
    out = [texts(c) for c in fresh]
    assert out == [texts(c) for c in stored]
    whole = "\n".join(out)
    assert "I got it in 7 tries!" in whole
    table = (NOTEBOOKS.parent.parent / "examples" / "bca-run.txt").read_text()
    games = table[table.index(" 296 "):table.index("Average")]  # the last games and seed 004's table
    assert games in whole and "Average number of tries was 5.09666" in whole
