"""The playground's page load until Run is usable (issue 39), in Debian's headless Chromium.

Builds the site with web/build.py (or takes one built: ``--site DIR``), serves it on 127.0.0.1, and opens
it ``--runs`` times, each in a fresh browser profile (nothing cached).  Each time it reads the milestones
the page records (``tinyc.timings.milestones``: ms since the navigation began, docs/web.md) once
``tinyc.ready`` resolves, then times a first Run of hello.tc (``tinyc.timings.last_run_ms``).  Prints each
milestone's median and the median of each step (the time since the milestone before it).

    .venv/bin/python benchmarks/web_load.py [--runs 3] [--site DIR]

Needs chromium, chromium-driver and npm (the test extra brings Selenium).  Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(folder: Path) -> str:
    """The URL of ``folder`` served by http.server in a daemon thread."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/"


def one_load(url: str) -> dict:
    """One page load in a fresh profile: {"milestones": [[name, ms], ...], "first_run_ms": ms}."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
                     "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
                     "--window-size=1400,900", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.set_script_timeout(150)
            driver.get(url)
            return driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                tinyc.ready.then(() => tinyc.run({stdin: ""})).then(() => done({
                    milestones: tinyc.timings.milestones, first_run_ms: tinyc.timings.last_run_ms}),
                    (e) => done({error: String(e)}));""")
        finally:
            driver.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="page loads, each in a fresh profile (default 3)")
    parser.add_argument("--site", help="a site web/build.py built (default: build one in a temporary folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        site = Path(args.site) if args.site else Path(work) / "site"
        if not args.site:
            subprocess.run([sys.executable, str(ROOT / "web" / "build.py"), str(site)], check=True)
        url = serve(site)
        loads = [one_load(url) for _ in range(args.runs)]
    failed = [load["error"] for load in loads if "error" in load]
    if failed:
        print("web_load.py: a load failed:", failed[0], file=sys.stderr)
        return 1
    chromium = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{chromium}; {args.runs} loads, fresh profiles; medians in ms since the navigation began")
    names = [name for name, _ in loads[0]["milestones"]]
    before = 0.0
    print(f"{'milestone':18} {'at':>7} {'step':>7}   (each load's 'at')")
    for i, name in enumerate(names):
        at = [load["milestones"][i][1] for load in loads]
        step = [load["milestones"][i][1] - (load["milestones"][i - 1][1] if i else 0) for load in loads]
        print(f"{name:18} {statistics.median(at):7.0f} {statistics.median(step):7.0f}   {at}")
        before = statistics.median(at)
    runs = [load["first_run_ms"] for load in loads]
    print(f"{'first Run (hello)':18} {statistics.median(runs):7.0f} {'':7}   {[round(r) for r in runs]}")
    print(f"Run usable after {before / 1000:.2f} s (median 'ready')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
