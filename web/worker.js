// The playground's Web Worker: Pyodide with the tinyc wheel, and web/glue.py as its Python side.
// Messages in: {id, op: "run" | "play" | "view" | "record" | "shell-start" | "shell-line" | "shell-complete" | "explain", args}; out: {id, ok, result | error},
// {id, out} (the output of a run or a play while it runs),
// and once {ready: true, ms, marks} (or {ready: false, error}) when Pyodide and tinyc are loaded; marks:
// [name, time] of each loading step's end (performance.mark here; time: ms since the Unix epoch, as
// performance.timeOrigin + the mark's time, since the page's clock has another origin).
// The page stops a program by terminating this worker and starting a new one.
importScripts("pyodide/pyodide.js");

let glue = null;
let shell = null;

const MARKS = ["worker-started", "pyodide-loaded", "packages-unpacked", "glue-imported", "first-run-done"];
performance.mark("worker-started");

async function fetched(url, as) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  return response[as]();
}

async function start() {
  const t0 = performance.now();
  // fetched while Pyodide starts: the packages (web/build.py: tinyc, Lark, platformdirs, compiled) and glue.py
  const packages = fetched("manifest.json", "json").then((m) => fetched(m.packages, "arrayBuffer"));
  const gluePy = fetched("glue.py", "text");
  packages.catch(() => {});
  gluePy.catch(() => {});
  const py = await loadPyodide({indexURL: new URL("pyodide/", self.location).href, fullStdLib: false});
  performance.mark("pyodide-loaded");
  // where pip would put them (unpackArchive's default is the working directory)
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(await packages, "zip", {extractDir: sitePackages});
  performance.mark("packages-unpacked");
  py.FS.mkdirTree("/tinyc-web");
  py.FS.writeFile("/tinyc-web/glue.py", await gluePy);
  py.runPython("import sys, importlib; sys.path.insert(0, '/tinyc-web'); importlib.invalidate_caches()");
  glue = py.pyimport("glue");
  glue.setup.callKwargs({home: "/home/pyodide/work", cache_seed: sitePackages + "/tinyc-web-cache"});
  performance.mark("glue-imported");
  glue.run("main [ ]\n");  // imports the command line and boots the library once, before the first Run
  performance.mark("first-run-done");
  return performance.now() - t0;
}

function plain(value) {
  if (value && typeof value.toJs === "function") {
    const js = value.toJs({dict_converter: Object.fromEntries});
    value.destroy();
    return js;
  }
  return value;
}

const ops = {
  // the output is posted as the program writes it ({id, out}; glue.streaming_console batches it), so the
  // page shows it while the program runs and keeps it when Stop ends this worker
  run: (a, id) => glue.run.callKwargs({source: a.source, dialect: a.dialect || null, entry: a.entry || "main",
                                       stdin: a.stdin || "", engine: a.engine || null,
                                       emit: (text) => postMessage({id, out: text})}),
  play: (a, id) => glue.play.callKwargs({source: a.source, dialect: a.dialect || null, entry: a.entry || "main",
                                         stdin: a.stdin || "", engine: a.engine || null,
                                         emit: (text) => postMessage({id, out: text})}),
  view: (a) => glue.view.callKwargs({source: a.source, name: a.name, dialect: a.dialect || null,
                                     entry: a.entry || "main", stdin: a.stdin || ""}),
  record: (a) => glue.record.callKwargs({source: a.source, dialect: a.dialect || "", entry: a.entry || "main",
                                         stdin: a.stdin || "", ...(a.limit ? {limit: a.limit} : {})}),
  "shell-start": (a) => { if (shell) shell.destroy(); shell = glue.WebShell(a.dialect || "pc"); return shell.start(); },
  "shell-line": (a) => shell.line(a.line, a.stdin || ""),
  "shell-complete": (a) => shell.complete(a.line || ""),
  explain: (a) => glue.explain(a.stderr || ""),
};

const ready = start().then(
  (ms) => postMessage({ready: true, ms, marks: MARKS.map((name) =>
    [name, performance.timeOrigin + performance.getEntriesByName(name, "mark")[0].startTime])}),
  (e) => postMessage({ready: false, error: String(e)}));

onmessage = async (event) => {
  await ready;
  const {id, op, args} = event.data;
  try {
    postMessage({id, ok: true, result: plain(ops[op](args || {}, id))});
  } catch (e) {
    // A JavaScript stack overflow (deep recursion in the reference engine) or a wasm trap leaves Pyodide
    // unusable: the page replaces this worker.
    const fatal = /Maximum call stack size exceeded|fatal error|RuntimeError: (memory access|unreachable)|out of memory/i
      .test(String(e));
    postMessage({id, ok: false, fatal, error: String(e)});
  }
};
