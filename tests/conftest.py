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
