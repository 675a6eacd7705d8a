"""Shared test set-up: tinyc's user directories (history, caches) point into a temporary directory, so
that no test writes to the real user's ones."""

import pytest


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
