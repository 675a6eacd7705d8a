"""The wheel and the sdist as a user gets them (issue 23): both are built from the source tree with
``python -m build``, with no warning, and every file the package opens at run time is in both.

The build is the real one (setuptools, no build isolation, so no download), run once in a temporary directory
from a copy of the source files: a data file added under ``tinyc``, ``programs/`` or ``examples/``
that the packaging does not ship fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_PARTS = {".git", ".venv", "__pycache__", "build", "dist", ".hypothesis", ".pytest_cache", ".benchmarks",
                 "fuzz-out", ".mypy_cache", ".import_linter_cache", ".npm-cache", "node_modules"}


def source_files() -> list[str]:
    """The source tree's files, relative to ROOT: git's list in a checkout, else (an unpacked sdist) every
    file but build products."""
    if (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
        return [n for n in names if (ROOT / n).is_file()]
    written = set(re.findall(r" -o (\S+)", (ROOT / "README.md").read_text()))  # the README's commands write them
    found = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if path.is_file() and not (set(rel.parts) & SKIPPED_PARTS) and not rel.parts[0].endswith(".egg-info") \
                and rel.name != "PKG-INFO" and rel.name != "setup.cfg" and rel.as_posix() not in written:
            found.append(rel.as_posix())
    return found


def installed_name(rel: str) -> str | None:
    """Where a source file lands in the wheel (``tinyc/...``), or None for files outside the package."""
    if rel.startswith("tinyc/"):
        return rel
    for top in ("programs/", "examples/"):
        if rel.startswith(top):
            return "tinyc/" + rel
    return None


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory):
    """(wheel names, sdist names relative to its top folder, the build's output) from one real build."""
    pytest.importorskip("build")
    tmp = tmp_path_factory.mktemp("build")
    tree = tmp / "tree"
    for rel in source_files():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tree / rel)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp / "dist"),
                           str(tree)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    wheel = next((tmp / "dist").glob("*.whl"))
    sdist = next((tmp / "dist").glob("*.tar.gz"))
    with zipfile.ZipFile(wheel) as z:
        wheel_names = set(z.namelist())
    with tarfile.open(sdist) as t:
        sdist_names = {m.name.split("/", 1)[1] for m in t.getmembers() if m.isfile() and "/" in m.name}
    return wheel_names, sdist_names, done.stdout + done.stderr


def test_the_build_gives_no_warning(artefacts):
    log = artefacts[2].splitlines()
    warnings = [line for line in log if "warn" in line.lower() and "byte-compiling is disabled" not in line]
    assert warnings == []


def test_every_package_file_is_in_the_wheel(artefacts):
    wheel = artefacts[0]
    expected = {installed_name(rel) for rel in source_files()} - {None}
    missing = sorted(n for n in expected if n not in wheel)
    assert missing == [], f"not shipped in the wheel: {missing}"
    for data in ("tinyc/lib/system.ipl", "tinyc/dialects/gibson/lib/library.tc", "tinyc/dialects/gibson/grammar.lark",
                 "tinyc/examples/gibson/hello.tc", "tinyc/programs/bc.tc", "tinyc/solver/trees/mastermind-optimal.json.gz"):
        assert data in wheel


def test_the_sdist_holds_every_source_file(artefacts):
    sdist = artefacts[1]
    missing = sorted(rel for rel in source_files() if rel not in sdist and rel != ".gitignore")
    assert missing == [], f"not in the sdist: {missing}"


def test_a_missing_data_file_says_the_installation_is_incomplete(tmp_path):
    """A copy of the installed package without its Gibson library: one line that names the file, exit 70."""
    import tinyc
    copy = tmp_path / "site" / "tinyc"
    shutil.copytree(Path(tinyc.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "dialects" / "gibson" / "lib" / "library.tc").unlink()
    program = tmp_path / "hello.tc"
    program.write_text('main [ ps "hi" ]\n')  # no #include: the dialect's library.tc
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "--dialect", "gibson", str(program)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site"), "TINYC_NO_CACHE": "1"})
    assert done.returncode == 70, done.stderr
    assert "installation is incomplete" in done.stderr and "library.tc" in done.stderr
    assert "Traceback" not in done.stderr
