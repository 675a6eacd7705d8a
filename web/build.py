"""Build the tinyc playground: ``python web/build.py DIR`` writes a static site to DIR (docs/web.md).

The site runs the real tinyc package in the browser with Pyodide.  Everything it loads is served from DIR:

* Pyodide's runtime, CodeMirror 5 and xterm.js: npm packages installed with the machine's ``npm`` into the
  cache directory (``--cache``, default ``~/.cache/tinyc-web``; kept between builds, never committed);
* the tinyc wheel, built from this checkout (``pip wheel --no-deps``), and the wheels of the pure-Python
  dependencies the page needs (Lark; platformdirs, which tinyc asks for its cache directory off Linux),
  fetched with ``pip download`` into the cache; the site holds them unpacked and compiled to bytecode by
  Pyodide's own Python under ``node`` (web/precompile.mjs), as one zip, packages.zip, so that the page
  does not compile them on every load;
* the page (web/index.html, boot.js, app.js, worker.js, style.css, step-tab.js, linked-views.js; the
  stepper's tinyc/debug/stepper.js and stepper.css), the Python glue (web/glue.py), and the shipped
  examples and programs as examples.json.

Serve DIR with any static server: ``python -m http.server -d DIR``.  Exit status 1, with the failing
step's output, when npm or pip fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent
NPM_PACKAGES = {"pyodide": "0.29.3", "codemirror": "5.65.20", "@xterm/xterm": "5.5.0"}
PY_DEPENDENCIES = ["lark>=1.1", "platformdirs>=3"]  # pure Python: what `tinyc run` and the views import
PYODIDE_FILES = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
VENDOR_JS = ["codemirror/lib/codemirror.js", "codemirror/addon/mode/simple.js", "@xterm/xterm/lib/xterm.js"]
VENDOR_CSS = ["codemirror/lib/codemirror.css", "@xterm/xterm/css/xterm.css"]
PAGE = ["index.html", "boot.js", "app.js", "worker.js", "style.css", "glue.py", "step-tab.js", "linked-views.js"]
STEPPER = ["stepper.js", "stepper.css"]  # the stepper's, package data in tinyc/debug/ (tinyc step -o uses them too)
# Examples that need more than `main` with no input: the entry and a sample standard input.
EXAMPLE_SETTINGS = {
    "bc.tc": {"entry": "bullcow"},  # Play it: it asks for a random number, then the score of each guess
    "bca.tc": {"entry": "bca", "stdin": "3141\n300\n"},
    "bck.tc": {"entry": "bcka", "stdin": "20\n"},  # Knuth's minimax over the first 20 secrets (.bck plays)
    "bce.tc": {"entry": "bcea", "stdin": "3141\n5\n"},  # entropy.c in integers: 5 games (about 0.4 s each)
    "bchex.tc": {"entry": "bchexa", "stdin": "300\n"},  # the seeds' hex phase AI over 300 secrets (.bchex plays)
    "gibson/guess.tc": {"stdin": "50\n25\n37\n"},
}


class BuildError(Exception):
    """A step failed: the message holds its command and output."""


def step(command: list[str], cwd: Path | None = None) -> None:
    """Run ``command``; BuildError with its output when it fails or cannot start."""
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    except OSError as e:
        raise BuildError(f"{command[0]}: {e.strerror} (is it installed?)") from None
    if done.returncode:
        raise BuildError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def npm_modules(cache: Path) -> Path:
    """node_modules with NPM_PACKAGES, installed by npm into ``cache/npm`` unless already there."""
    folder = cache / "npm"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = json.dumps({"name": "tinyc-web-vendor", "private": True, "version": "0.0.0",
                           "dependencies": NPM_PACKAGES}, indent=1)
    stamp = folder / "installed.json"
    if stamp.is_file() and stamp.read_text() == manifest and (folder / "node_modules").is_dir():
        return folder / "node_modules"
    (folder / "package.json").write_text(manifest)
    step(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=folder)
    stamp.write_text(manifest)
    return folder / "node_modules"


def dependency_wheels(cache: Path) -> list[Path]:
    """The wheels of PY_DEPENDENCIES, downloaded by pip into ``cache/wheels`` unless already there."""
    folder = cache / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    found = []
    for requirement in PY_DEPENDENCIES:
        name = requirement.split(">")[0].split("=")[0]
        have = sorted(folder.glob(f"{name}-*-py3-none-any.whl"))
        if not have:
            step([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                  "--python-version", "3.13", "--platform", "any", "-q", "-d", str(folder), requirement])
            have = sorted(folder.glob(f"{name}-*-py3-none-any.whl"))
        if not have:
            raise BuildError(f"pip download {requirement} gave no pure-Python wheel")
        found.append(have[-1])
    return found


def tinyc_wheel(work: Path) -> Path:
    """The tinyc wheel built from this checkout into ``work`` (without build isolation when setuptools is
    here, as CI's venv has it; else pip fetches the build backend)."""
    base = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(ROOT)]
    try:
        step(base[:4] + ["--no-build-isolation"] + base[4:])
    except BuildError:
        step(base)
    wheels = sorted(work.glob("tinyc-*.whl"))
    if not wheels:
        raise BuildError("pip wheel made no tinyc wheel")
    return wheels[-1]


def compiled_packages(pyodide: Path, wheels: list[Path], target: Path) -> None:
    """``target``: a zip of ``wheels`` unpacked and compiled by Pyodide's Python (web/precompile.mjs under
    node, which npm brings)."""
    step(["node", str(WEB / "precompile.mjs"), str(pyodide), str(target), *map(str, wheels)])


def examples() -> list[dict]:
    """The shipped programs and examples: name, dialect, entry, sample stdin and source text."""
    found = []
    for pattern in ("programs/*.tc", "examples/*.tc", "examples/gibson/*.tc"):
        for path in sorted(ROOT.glob(pattern)):
            name = str(path.relative_to(ROOT / pattern.split("/")[0]))
            source = path.read_bytes().decode("utf-8", "replace")
            dialect = "gibson" if name.startswith("gibson/") else "pc"
            found.append({"name": name, "dialect": dialect, "entry": "main", "stdin": "", "source": source,
                          **EXAMPLE_SETTINGS.get(name, {})})
    return found


def concatenate(modules: Path, names: list[str], target: Path) -> None:
    """One file of the vendor files ``names``, in order (the page's bundle: each is a browser script)."""
    with open(target, "w", encoding="utf-8") as out:
        for name in names:
            out.write(f"/* {name} (npm) */\n")
            out.write((modules / name).read_text(encoding="utf-8"))
            out.write("\n")


def build(site: Path, cache: Path) -> None:
    """Write the site to ``site`` (emptied first when it holds a previous build)."""
    modules = npm_modules(cache)
    deps = dependency_wheels(cache)
    if site.exists() and (site / "manifest.json").exists():
        shutil.rmtree(site)
    (site / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, site / "pyodide" / name)
    concatenate(modules, VENDOR_JS, site / "vendor.js")
    concatenate(modules, VENDOR_CSS, site / "vendor.css")
    with tempfile.TemporaryDirectory() as work:
        wheels = [tinyc_wheel(Path(work))] + deps
        compiled_packages(modules / "pyodide", wheels, site / "packages.zip")
    for name in PAGE:
        shutil.copy2(WEB / name, site / name)
    for name in STEPPER:
        shutil.copy2(ROOT / "tinyc" / "debug" / name, site / name)
    (site / "examples.json").write_text(json.dumps(examples()))
    (site / "manifest.json").write_text(json.dumps({"packages": "packages.zip", "wheels": [w.name for w in wheels],
                                                     "npm": NPM_PACKAGES}))


def default_cache() -> Path:
    return Path(os.environ.get("TINYC_WEB_CACHE") or Path.home() / ".cache" / "tinyc-web")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the tinyc playground (a static site) into DIR.")
    parser.add_argument("site", metavar="DIR", help="the folder to write the site to")
    parser.add_argument("--cache", default=None,
                        help="where npm and pip downloads are kept (default: $TINYC_WEB_CACHE or ~/.cache/tinyc-web)")
    args = parser.parse_args(argv)
    try:
        build(Path(args.site), Path(args.cache) if args.cache else default_cache())
    except BuildError as e:
        print(f"web/build.py: {e}", file=sys.stderr)
        return 1
    print(f"built the playground in {args.site}: serve it with  python -m http.server -d {args.site}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
