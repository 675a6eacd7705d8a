// Build step of web/build.py (docs/web.md): the page's Python packages as one zip, compiled once.
//   node web/precompile.mjs PYODIDE_DIR OUT.zip WHEEL...
// Unpacks the wheels in Pyodide (the same Python the page runs, so the same bytecode), compiles every
// module (unchecked-hash .pyc files: used as they are, whatever the files' times after unpacking), runs
// `tinyc run` once in each dialect so that tinyc's cache directory holds Lark's analyses of the grammars,
// and writes the tree as OUT.zip, with that directory as tinyc-web-cache/; the worker unpacks it into its
// site-packages.  Without it every page load compiled tinyc's and Lark's sources to bytecode and analysed
// the grammars before the first run.
import {readFileSync, writeFileSync} from "node:fs";
import {pathToFileURL} from "node:url";
import {resolve} from "node:path";

const [pyodideDir, out, ...wheels] = process.argv.slice(2);
if (!out || !wheels.length) {
  console.error("usage: node web/precompile.mjs PYODIDE_DIR OUT.zip WHEEL...");
  process.exit(2);
}
const {loadPyodide} = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({indexURL: resolve(pyodideDir) + "/", fullStdLib: false});
for (const wheel of wheels) py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", {extractDir: "/packages"});
try {
  py.runPython(`
import compileall, os, py_compile, zipfile
if not compileall.compile_dir("/packages", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
    raise SystemExit("compileall failed")
# Lark's analyses of the two dialects' grammars, made here once: tinyc keeps them in its cache directory,
# sealed with the key there, and the page starts with this folder (glue.setup's cache_seed)
import sys
sys.path.insert(0, "/packages")
from tinyc.cli.main import main
from tinyc.dirs import KEY_FILE, KEY_SIZE, cache_path
os.environ["TINYC_NO_CACHE"] = "1"  # only Lark's analyses: parsed texts depend on the files' times
seed = "/packages/tinyc-web-cache"
os.makedirs(cache_path(), mode=0o700, exist_ok=True)
with open(os.open(os.path.join(cache_path(), KEY_FILE), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
    f.write(os.urandom(KEY_SIZE))
os.chdir("/tmp")
for dialect in ("pc", "gibson"):
    with open("warm.tc", "w") as f:
        f.write("main [ ]\\n")
    if main(["run", "--dialect", dialect, "warm.tc"]):
        raise SystemExit(f"tinyc run --dialect {dialect} failed")
os.makedirs(seed)
for name in os.listdir(cache_path()):
    with open(os.path.join(cache_path(), name), "rb") as f, open(os.path.join(seed, name), "wb") as g:
        g.write(f.read())
if len([name for name in os.listdir(seed) if name.startswith("lark-")]) < 4:  # each dialect's lexer and parser
    raise SystemExit(f"Lark's analyses were not all cached: {os.listdir(seed)}")
with zipfile.ZipFile("/packages.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for folder, _, files in sorted(os.walk("/packages")):
        for name in sorted(files):
            path = os.path.join(folder, name)
            z.write(path, os.path.relpath(path, "/packages"))
`);
} catch (e) {  // the Python error alone (the default report prints all of pyodide.asm.js)
  console.error(String(e.message || e));
  process.exit(1);
}
writeFileSync(out, py.FS.readFile("/packages.zip"));
