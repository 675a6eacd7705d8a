"""The system tools the editor tests use (node, npm, nvim) and the npm packages they install.

The npm packages (``TOOLS``) are installed once with the machine's ``npm`` into ``.npm-cache/tools`` at the
top of the checkout (``.gitignore`` covers it), with npm's own download cache in ``.npm-cache/npm``, so a
later run needs no network (``--prefer-offline``).  A missing tool skips the test that needs it, saying
what to install, unless ``TINYC_REQUIRE_SYSTEM=1`` (CI), when it fails (tests/system_tools.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import system_tools

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".npm-cache"
TOOLS = {"@vscode/debugadapter-testsupport": "^1.68.0", "@vscode/debugprotocol": "^1.68.0",
         "vscode-textmate": "^9.3.2", "vscode-oniguruma": "^2.0.1", "@vscode/vsce": "^3.0.0"}


def need(tool: str, install: str) -> str:
    """The path of ``tool``; skips (fails with TINYC_REQUIRE_SYSTEM=1) when it is not installed
    (:func:`system_tools.need`)."""
    system_tools.need(tool, install=install)
    return shutil.which(tool) or tool


def node_modules() -> Path:
    """``.npm-cache/tools/node_modules`` with ``TOOLS``, installed by npm unless already there."""
    need("node", "apt-get install nodejs")
    npm = need("npm", "apt-get install npm")
    folder = CACHE / "tools"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {"name": "tinyc-test-tools", "private": True, "version": "0.0.0", "dependencies": TOOLS}
    wanted = json.dumps(manifest, indent=1)
    have = (folder / "package.json").read_text() if (folder / "package.json").exists() else ""
    marker = folder / "node_modules" / ".tinyc-installed"
    if have != wanted or not marker.exists():
        (folder / "package.json").write_text(wanted)
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline",
                               "--cache", str(CACHE / "npm")], cwd=folder, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            pytest.fail(f"npm install failed (offline with no cache?):\n{done.stderr[-2000:]}")
        marker.write_text(wanted)
    return folder / "node_modules"


def node(script: Path, *args: str, timeout: int = 300, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``node script args...`` with the tools' node_modules on NODE_PATH."""
    modules = node_modules()
    env = {**os.environ, "NODE_PATH": str(modules)}
    return subprocess.run([shutil.which("node") or "node", str(script), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd)
