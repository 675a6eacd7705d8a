"""Tests that need a system package (chromium, npm, neovim, ...): skipped with what to install on a machine
that lacks it, so that the README's test command passes on a fresh machine; required where the environment
sets TINYC_REQUIRE_SYSTEM=1 (.ci/run does), so that CI runs them all."""

import os
import shutil

import pytest

REQUIRE = "TINYC_REQUIRE_SYSTEM"


def missing(*tools: str) -> list[str]:
    """The names among ``tools`` (commands or absolute paths) that this machine lacks."""
    return [t for t in tools if not (os.access(t, os.X_OK) if os.path.isabs(t) else shutil.which(t))]


def need(*tools: str, install: str) -> None:
    """Skip the calling test when one of ``tools`` is missing, naming ``install`` (the command that brings
    them); fail instead when TINYC_REQUIRE_SYSTEM=1.

    Raises: ``pytest.skip.Exception`` or ``pytest.fail.Exception``."""
    lacking = missing(*tools)
    if not lacking:
        return
    message = f"needs {', '.join(lacking)}: {install}"
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 and this test {message}")
    pytest.skip(f"{message} (CI sets {REQUIRE}=1 and runs it)")
