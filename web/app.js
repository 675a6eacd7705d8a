// The playground page: the editor, the buttons and tabs, and window.tinyc, the page's JavaScript API
// (docs/web.md).  tinyc itself runs in worker.js (a Web Worker, so that the page stays responsive and
// Stop can end any program by terminating the worker).
"use strict";
performance.mark("page-script");  // the page's scripts (vendor.js, stepper.js) are loaded and parsed

const MAX_SOURCE = 1 << 20;  // characters: a larger program is refused here, before it is sent
const $ = (id) => document.getElementById(id);

// ---- tiny-c highlighting (a CodeMirror simple mode, the rules of tinyc.shell.highlight)
CodeMirror.defineSimpleMode("tinyc", {
  start: [
    {regex: /#(include|loadMC)\b.*/, token: "meta", sol: true},
    {regex: /\/\/.*/, token: "comment"},
    {regex: /\/\*.*/, token: "comment"},
    {regex: /"[^"]*"?/, token: "string"},
    {regex: /'[^']'/, token: "string"},
    {regex: /\b(?:int|char)\b/, token: "type"},
    {regex: /\b(?:if|else|while|for|return|break|endlibrary)\b/, token: "keyword"},
    {regex: /\bMC\b/, token: "builtin"},
    {regex: /[A-Za-z_]\w*(?=[^\n\[]*\[\s*(\/\*.*)?$)/, token: "def", sol: true},
    {regex: /[A-Za-z_]\w*/, token: "variable"},
    {regex: /\d+/, token: "number"},
    {regex: /\+\+|--|==|!=|<=|>=|[-+*\/%<>=!&|^]/, token: "operator"},
    {regex: /[\[\]]/, token: "bracket"},
  ],
});
const editor = CodeMirror.fromTextArea($("source"), {mode: "tinyc", lineNumbers: true, indentUnit: 2});
editor.on("change", () => {
  editor.save();  // #source's value stays the program
  // an edited program is no longer the example chosen nor the one the share link holds
  if (!loading) {
    $("examples").value = "";
    $("share-link").value = "";
  }
});
let loading = false;  // tinyc.load is putting a program in: the Example menu keeps its choice

// ---- the worker
let worker = null;
let pending = new Map();  // id -> {resolve, stopped}
let nextId = 1;
let readyResolve, readyReject;
const timings = {milestones: []};  // milestones: [name, ms since the page's navigation began], by time

// The page load's milestones (docs/web.md): the page's marks (boot.js's "worker-created", app.js's
// "page-script", "ready") and the first worker's, each also a performance.measure from the milestone
// before it (as DevTools' Performance panel shows them).  The worker loads while app.js's scripts load:
// "page-script" may come before or after the worker's first marks.
function noteLoad(workerMarks) {
  const mark = (name) => performance.getEntriesByName(name, "mark")[0].startTime;
  const found = [["worker-created", mark("worker-created")], ["page-script", mark("page-script")],
                 ...workerMarks.map(([name, at]) => [name, at - performance.timeOrigin]),
                 ["ready", performance.now()]].sort((a, b) => a[1] - b[1]);
  let before = "navigation";
  for (const [name, ms] of found) {
    if (!performance.getEntriesByName(name, "mark").length) performance.mark(name, {startTime: ms});
    performance.measure(`${before} → ${name}`, before === "navigation" ? undefined : before, name);
    before = name;
  }
  timings.milestones = found.map(([name, ms]) => [name, Math.round(ms)]);
}

function startWorker() {
  const t0 = window.tinycBoot ? performance.getEntriesByName("worker-created", "mark")[0].startTime : performance.now();
  tinyc.ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
  tinyc.ready.catch(() => {});
  const boot = window.tinycBoot;  // the page's first worker, started by boot.js
  window.tinycBoot = null;
  worker = boot ? boot.worker : new Worker("worker.js");
  worker.onmessage = (event) => {
    const m = event.data;
    if (m.ready !== undefined) {
      if (m.ready) {
        timings.ready_ms = performance.now() - t0;
        if (!timings.milestones.length) noteLoad(m.marks || []);
        setState("ready");
        $("run").disabled = $("play").disabled = false;
        readyResolve(true);
      } else {
        setState("failed to load: " + m.error);
        readyReject(new Error(m.error));
      }
      return;
    }
    if (m.fatal) {
      const deep = /call stack/.test(m.error);
      restart(deep ? "the browser's stack ran out: the program calls too deep for the page (the reference " +
                     "engine needs dozens of Python frames per tiny-c call); try the fast engine"
                   : "the Python worker failed: " + m.error, 1);
      return;
    }
    const job = pending.get(m.id);
    if (m.out !== undefined) {  // a run's or a play's output while it runs
      if (job) { job.streamed += m.out; if (job.onOutput) job.onOutput(m.out); }
      return;
    }
    pending.delete(m.id);
    if (job) m.ok ? job.resolve(m.result) : job.reject(new Error(m.error));
  };
  worker.onerror = (event) => restart("the Python worker failed: " + (event.message || "an error"), 1);
  if (boot) for (const event of boot.messages) worker.onmessage(event);
}

function call(op, args, onOutput = null) {
  return tinyc.ready.then(() => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, {resolve, reject, op, onOutput, streamed: ""});
    worker.postMessage({id, op, args});
  }));
}

// Stop: end the worker (and whatever it runs) and start a fresh one; a run in progress ends with
// status 130 and "stopped", as Ctrl-C ends `tinyc run`, keeping the output it had written.  After a
// failure (status 1) it ends with the reason.
function restart(reason, status = 130) {
  worker.terminate();
  const jobs = [...pending.values()];
  pending = new Map();
  const stderr = status === 130 ? "stopped\n" : `tinyc: ${reason}\n`;
  for (const job of jobs) {
    if (job.op === "run" || job.op === "play") job.resolve({stdout: job.streamed, stderr, status, stoppedBy: reason});
    else job.reject(new Error(reason));
  }
  setState("restarting Python…");
  $("run").disabled = $("play").disabled = true;
  playing.input = null;
  $("play-line").hidden = true;
  startWorker();
  if (terminal.started) {  // the shell lived in the old worker: a fresh one starts (its program is lost)
    terminal.term.write(`\r\n(${reason}: a new shell starts)\r\n`);
    terminal.started = false;
    terminal.queue = terminal.line = "";
    terminal.pos = 0;
    shellStart();
  }
}

function setState(text) { $("state").textContent = text; }

// ---- the API
function program(options) {
  const source = editor.getValue();
  return {source, dialect: options.dialect ?? $("dialect").value, engine: options.engine ?? $("engine").value,
          entry: options.entry ?? ($("entry").value.trim() || "main"), stdin: options.stdin ?? $("stdin").value};
}

function refusal(source) {
  if (source.length > MAX_SOURCE)
    return {stdout: "", stderr: `tinyc: the program is too large: ${source.length} characters ` +
            `(the playground takes at most ${MAX_SOURCE})\n`, status: 2};
  return null;
}

const tinyc = {
  ready: null,
  timings,
  /** Put `source` in the editor; options.dialect: "pc", "gibson" or "" (auto), entry, stdin. */
  load(source, options = {}) {
    // a new program: what is not given goes back to its default (an entry kept from the last program,
    // such as bc.tc's bullcow, made the next run fail with error 26)
    loading = true;
    try { editor.setValue(String(source)); } finally { loading = false; }
    $("share-link").value = "";
    $("dialect").value = options.dialect || "";
    $("entry").value = options.entry || "main";
    $("stdin").value = options.stdin ?? "";
  },
  /** Run the editor's program: a Promise of {stdout, stderr, status} as `tinyc run` gives them;
   *  options.onOutput(text) is called with the output while the program runs (Stop keeps it in stdout). */
  run(options = {}) {
    const args = program(options);
    const refused = refusal(args.source);
    if (refused) return Promise.resolve(refused);
    const t0 = performance.now();
    return call("run", args, options.onOutput).then((r) => { timings.last_run_ms = performance.now() - t0; return r; });
  },
  /** The stage view `name` (tokens, parse, ast, link, trace, python; `python -O0`, `python --no-NAME`: with
   *  that optimisation off) of the editor's program: a Promise of text. */
  view(name, options = {}) {
    const args = program(options);
    if (refusal(args.source)) return Promise.resolve(refusal(args.source).stderr);
    return call("view", {...args, name});
  },
  stop() { restart("stopped by the Stop button"); },
};
window.tinyc = tinyc;

// ---- the buttons
$("run").onclick = async () => {
  $("output").textContent = "";
  $("error").textContent = "";
  unmark();
  $("status").textContent = "running…";
  $("stop").disabled = false;
  showTab("output");
  const r = await tinyc.run({onOutput: (text) => $("output").append(text)});  // shown as it comes
  $("stop").disabled = true;
  $("output").textContent = r.stdout;
  showError(r);
  $("status").textContent = r.stoppedBy ? r.stoppedBy : `exit status ${r.status}` +
    (timings.last_run_ms ? ` (${(timings.last_run_ms / 1000).toFixed(2)} s)` : "");
};
$("stop").onclick = () => tinyc.stop();

// An error report: its meaning on a line of its own under it (as the terminal shell's dim line), and its
// line marked in the editor until the next run or edit.
let marked = null;
function unmark() {
  if (marked !== null) editor.removeLineClass(marked, "background", "error-line");
  marked = null;
}
editor.on("change", unmark);
async function showError(r) {
  $("error").textContent = r.stderr;
  unmark();
  if (r.status === 1 && /^stopped\n?$/.test(r.stderr) && !r.stoppedBy && !$("stdin").value) {
    // the end of an empty input box at a read (error 99): say what the program wanted
    const hint = document.createElement("div");
    hint.className = "meaning";
    hint.textContent = "the program waits for input: type its lines in the standard input box, " +
                       "or press Play to type each line when it asks";
    $("error").appendChild(hint);
    return;
  }
  if (r.status !== 1 || !r.stderr) return;
  const found = await call("explain", {stderr: r.stderr}).catch(() => ({}));
  if (!found || !found.meaning) return;
  const meaning = document.createElement("div");
  meaning.className = "meaning";
  meaning.textContent = found.meaning;
  $("error").appendChild(meaning);
  if (found.line > 0 && found.line <= editor.lineCount()) {
    marked = editor.addLineClass(found.line - 1, "background", "error-line");
  }
}

// Play: run with the input box, and when the program reads past its end, ask for the next line here and
// run it again with all the lines so far (with --echo, so the lines typed show in the output).
const playing = {input: null};
async function playStep() {
  const args = program({stdin: playing.input});
  $("play-line").hidden = true;
  $("status").textContent = "running…";
  $("stop").disabled = false;
  // shown as it comes (the same stream as Run's); a replay first writes again the game shown so far, so
  // only what passes it is added (the same lines give the same game)
  const shown = $("output").textContent.length;
  let written = 0;
  const onOutput = (text) => {
    written += text.length;
    if (written > shown) $("output").append(text.slice(Math.max(0, text.length - (written - shown))));
  };
  const r = refusal(args.source) || await call("play", args, onOutput);
  $("stop").disabled = true;
  $("output").textContent = r.stdout;
  showError(r);
  if (r.waiting) {
    $("play-line").hidden = false;
    $("play-input").focus();
    $("status").textContent = "waiting for a line of input";
  } else {
    playing.input = null;
    $("status").textContent = r.stoppedBy || `exit status ${r.status}`;
  }
}
$("play").onclick = () => {
  const box = $("stdin").value;
  playing.input = box && !box.endsWith("\n") ? box + "\n" : box;
  $("output").textContent = "";  // a new game: nothing of it is shown yet
  $("error").textContent = "";
  unmark();
  showTab("output");
  playStep();
};
$("play-input").addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || playing.input === null) return;
  playing.input += $("play-input").value + "\n";
  $("play-input").value = "";
  playStep();
});

function showTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".pane")) p.classList.toggle("active", p.id === "pane-" + name);
  if (name === "terminal") shellStart();
}
for (const b of document.querySelectorAll(".tabs button")) b.onclick = () => showTab(b.dataset.tab);

// The Generated Python view with the switch chosen under #view-optimise (-O0, --no-NAME: that optimisation off).
const viewName = (name) => (name === "python" && $("view-optimise").value ? `python ${$("view-optimise").value}` : name);
$("view-optimise").onchange = () => $("view-python").click();
for (const b of document.querySelectorAll(".views button")) {
  b.onclick = async () => {
    for (const o of document.querySelectorAll(".views button")) o.classList.toggle("active", o === b);
    $("view").textContent = "…";
    $("view").dataset.view = "";
    try {
      $("view").textContent = await tinyc.view(viewName(b.dataset.view));
    } catch (e) {
      $("view").textContent = String(e.message || e);
    }
    $("view").dataset.view = b.dataset.view;  // the view shown is complete
  };
}

// ---- examples
let examples = [];
fetch("examples.json").then((r) => r.json()).then((list) => {
  examples = list;
  for (const [i, e] of list.entries()) {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = e.name + (e.entry !== "main" ? ` (.${e.entry})` : "");
    $("examples").appendChild(option);
  }
});
$("examples").onchange = () => {
  const e = examples[Number($("examples").value)];
  if (e) tinyc.load(e.source, {dialect: e.dialect, entry: e.entry, stdin: e.stdin});
};

// ---- share links: the program (and its settings) in the URL fragment, as base64url of UTF-8
function toBase64(text) {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromBase64(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}
$("share").onclick = () => {
  const p = program({});
  const fields = new URLSearchParams({code: toBase64(p.source), dialect: p.dialect, entry: p.entry,
                                      stdin: toBase64(p.stdin)});
  const link = location.href.split("#")[0] + "#" + fields.toString();
  history.replaceState(null, "", link);
  $("share-link").value = link;
  $("share-link").select();
};
function openShared() {
  const fields = new URLSearchParams(location.hash.slice(1));
  if (!fields.has("code")) return;
  try {
    tinyc.load(fromBase64(fields.get("code")), {dialect: fields.get("dialect") || "",
      entry: fields.get("entry") || "main", stdin: fields.has("stdin") ? fromBase64(fields.get("stdin")) : ""});
  } catch (e) {
    $("error").textContent = "the share link is damaged: its program could not be read";
  }
}
window.addEventListener("hashchange", openShared);

// ---- the tc> shell in a terminal: the line is edited here, each line is obeyed by tinyc.shell.Shell.
// Keys typed while a line runs wait in `queue` (nothing typed is lost).  The line is edited as the
// terminal shell's is: left/right, Home/End (and Ctrl-A/E), Backspace/Delete, Ctrl-U/K, the history with
// up/down, Tab completion of the dot commands and the program's names; an escape sequence that is not
// one of these is dropped, never typed into the line (a stray "[A" became a program line, then error 2).
const terminal = {term: null, line: "", pos: 0, prompt: "", queue: "", started: false, busy: false,
                  dialect: "pc", history: [], back: 0, draft: ""};
const KEYS = {"\x1b[D": "left", "\x1bOD": "left", "\x1b[C": "right", "\x1bOC": "right",
              "\x1b[A": "up", "\x1bOA": "up", "\x1b[B": "down", "\x1bOB": "down",
              "\x1b[H": "home", "\x1bOH": "home", "\x1b[1~": "home", "\x1b[7~": "home", "\x01": "home",
              "\x1b[F": "end", "\x1bOF": "end", "\x1b[4~": "end", "\x1b[8~": "end", "\x05": "end",
              "\x1b[3~": "delete", "\x04": "delete", "\x15": "kill-start", "\x0b": "kill-end", "\t": "tab",
              "\x02": "left", "\x06": "right", "\x10": "up", "\x0e": "down"};
function shellWrite(text) {
  // what the shell wrote; its last unfinished line is the prompt a redrawn line starts with
  terminal.term.write(text);
  const nl = text.lastIndexOf("\n");
  terminal.prompt = nl < 0 ? terminal.prompt + text : text.slice(nl + 1);
}
function shellRedraw() {
  const {term, line, pos} = terminal;
  const back = line.length - pos;
  term.write("\r" + terminal.prompt.replace(/\r/g, "") + line + "\x1b[K" + (back ? `\x1b[${back}D` : ""));
}
function shellSetLine(line, pos = line.length) {
  terminal.line = line;
  terminal.pos = pos;
  shellRedraw();
}
function shellFit() {
  // the terminal fills its pane: as many rows as the space under the tabs holds
  const box = $("terminal");
  const rows = Math.max(10, Math.floor((box.clientHeight || 384) / 17) - 1);
  const cols = Math.max(40, Math.floor((box.clientWidth || 720) / 9) - 1);
  if (terminal.term && (rows !== terminal.term.rows || cols !== terminal.term.cols)) terminal.term.resize(cols, rows);
}
function shellStart() {
  if (!terminal.term) {
    terminal.term = new Terminal({convertEol: true, cursorBlink: true, rows: 24, cols: 80});
    terminal.term.open($("terminal"));
    terminal.term.onData((data) => { terminal.queue += data; shellPump(); });
    window.addEventListener("resize", shellFit);
  }
  shellFit();
  if (terminal.started) return;
  terminal.started = true;
  terminal.busy = true;
  terminal.prompt = "";
  terminal.dialect = $("dialect").value === "gibson" ? "gibson" : "pc";
  call("shell-start", {dialect: terminal.dialect}).then((text) => { shellWrite(text); shellDone(); },
                               (e) => { shellWrite(`\r\n${e.message}\r\n`); shellDone(); });
}
function shellDone() {
  terminal.busy = false;
  shellPump();
}
function shellEnter() {
  const line = terminal.line;
  if (line && terminal.history[terminal.history.length - 1] !== line) terminal.history.push(line);
  terminal.back = 0;
  terminal.line = "";
  terminal.pos = 0;
  terminal.term.write("\r\n");
  terminal.prompt = "";
  terminal.busy = true;
  call("shell-line", {line, stdin: $("stdin").value}).then((text) => {
    shellWrite(text);
    if (!text.endsWith("tc>")) {  // .x: the shell ended; a fresh one starts
      shellWrite("(the shell has ended: a new one starts)\r\n");
      terminal.started = false;
      shellStart();
      return;
    }
    shellDone();
  }, (e) => { shellWrite(`\r\n${e.message}\r\n`); shellDone(); });
}
function shellHistory(step) {
  const h = terminal.history;
  const back = Math.min(h.length, Math.max(0, terminal.back + step));
  if (back === terminal.back) return;
  if (terminal.back === 0) terminal.draft = terminal.line;
  terminal.back = back;
  shellSetLine(back === 0 ? terminal.draft : h[h.length - back]);
}
function shellComplete() {
  const before = terminal.line.slice(0, terminal.pos);
  terminal.busy = true;
  call("shell-complete", {line: before}).then((found) => {
    const after = terminal.line.slice(terminal.pos);
    if (found.length === 1) {
      shellSetLine(found[0] + after, found[0].length);
    } else if (found.length > 1) {
      let common = found[0];
      for (const f of found) while (!f.startsWith(common)) common = common.slice(0, -1);
      if (common.length > before.length) {
        shellSetLine(common + after, common.length);
      } else {  // the choices on a line of their own, then the line again
        terminal.term.write("\r\n" + found.join("  ") + "\r\n");
        shellRedraw();
      }
    }
    shellDone();
  }, () => shellDone());
}
function shellPump() {
  while (!terminal.busy && terminal.queue) {
    const q = terminal.queue;
    const seq = /^\x1b(\[[0-9;]*[A-Za-z~]|O[A-Za-z])/.exec(q);
    const key = seq ? seq[0] : q[0];
    terminal.queue = q.slice(key.length);
    const {line, pos} = terminal;
    const action = KEYS[key];
    if (key === "\r") {
      shellEnter();
    } else if (key === "\x7f" || key === "\b") {
      if (pos) shellSetLine(line.slice(0, pos - 1) + line.slice(pos), pos - 1);
    } else if (key === "\x03") {
      terminal.line = "";
      terminal.pos = 0;
      terminal.back = 0;
      terminal.term.write("^C\r\n" + (terminal.prompt.replace(/\r/g, "") || "tc>"));
    } else if (action === "left") {
      if (pos) { terminal.pos--; terminal.term.write("\x1b[D"); }
    } else if (action === "right") {
      if (pos < line.length) { terminal.pos++; terminal.term.write("\x1b[C"); }
    } else if (action === "home") {
      shellSetLine(line, 0);
    } else if (action === "end") {
      shellSetLine(line);
    } else if (action === "delete") {
      if (pos < line.length) shellSetLine(line.slice(0, pos) + line.slice(pos + 1), pos);
    } else if (action === "kill-start") {
      shellSetLine(line.slice(pos), 0);
    } else if (action === "kill-end") {
      shellSetLine(line.slice(0, pos), pos);
    } else if (action === "up" || action === "down") {
      shellHistory(action === "up" ? 1 : -1);
    } else if (action === "tab") {
      shellComplete();
    } else if (key >= " " && key !== "\x7f") {  // a character, or several pasted: typed at the cursor
      const text = key.length > 1 ? key : (() => {  // a run of plain characters at once
        const run = /^[^\x00-\x1f\x7f]+/.exec(q);
        terminal.queue = q.slice(run[0].length);
        return run[0];
      })();
      if (pos === line.length) {
        terminal.line += text;
        terminal.pos += text.length;
        terminal.term.write(text);
      } else {
        shellSetLine(line.slice(0, pos) + text + line.slice(pos), pos + text.length);
      }
    }
  }
}
// Another dialect chosen while the shell runs: a shell of that dialect starts (the old one's buffer is lost).
$("dialect").addEventListener("change", () => {
  const chosen = $("dialect").value === "gibson" ? "gibson" : "pc";
  if (!terminal.started || chosen === terminal.dialect || terminal.busy) return;
  terminal.term.write(`\r\n(dialect ${chosen}: a new shell starts)\r\n`);
  terminal.started = false;
  terminal.queue = terminal.line = "";
  terminal.pos = 0;
  shellStart();
});
/** The terminal's text, line by line (for tests and for people who embed the page). */
tinyc.terminalText = () => {
  const buffer = terminal.term ? terminal.term.buffer.active : null;
  const lines = [];
  for (let i = 0; buffer && i < buffer.length; i++) lines.push(buffer.getLine(i).translateToString(true));
  return lines.join("\n").replace(/\n+$/, "");
};

startWorker();
openShared();
