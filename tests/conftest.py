"""Shared test set-up: tinyc's user directories (history, caches) point into a temporary directory, so
that no test writes to the real user's ones; and a guard that the tests test the installed tinyc."""

import json
import sys
from importlib import metadata
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent


def _editable() -> bool:
    """Whether tinyc is installed in editable mode (pip's direct_url.json says so, PEP 610)."""
    try:
        text = metadata.distribution("tinyc").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return False
    return bool(text) and json.loads(text).get("dir_info", {}).get("editable", False)


def _guard_installed() -> None:
    # With tinyc/ at the top of the checkout, `python -m pytest` (the current directory on sys.path) would test
    # the checkout's files instead of the install: stop with the command to use.
    import tinyc
    where = Path(tinyc.__file__).resolve()
    # the checkout's own package, not an install in a venv inside the checkout (the README makes .venv there)
    if where.parent == CHECKOUT / "tinyc" and not _editable():
        sys.exit(f"tests: tinyc was imported from the checkout ({where.parent}), not from an install; "
                 "run the venv's pytest script (.venv/bin/pytest -q), not `python -m pytest`, "
                 "or install in editable mode (pip install -e '.[test]')")


_guard_installed()


@pytest.fixture(autouse=True, scope="session")
def _private_user_dirs(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    base = tmp_path_factory.mktemp("user-dirs")
    for var in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        mp.setenv(var, str(base / var.lower()))
    yield base
    mp.undo()


@pytest.fixture(scope="module")
def ip():
    """An IPython shell with ``%load_ext tinyc`` loaded (the test is skipped without IPython)."""
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tinyc")
    return shell


@pytest.fixture
def compiled(tmp_path, capsys, monkeypatch):
    """``compiled(source, *options)``: what ``tinyc compile`` prints for the program ``source`` (the fast
    engine's Python), generated afresh (no disk cache)."""
    from tinyc.cli import main as cli
    monkeypatch.setenv("TINYC_NO_CACHE", "1")

    def run(source: str, *options: str) -> str:
        program = tmp_path / "compiled.tc"
        program.write_text(source)
        assert cli.main(["compile", *options, str(program)]) == 0
        return capsys.readouterr().out
    return run
