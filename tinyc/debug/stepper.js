// tinyc/debug/stepper.js: the stepper over a recorded run (issue 37): the JSON trace of docs/stepper.md replayed forward and
// backward, with a source view, the call stack, the output so far and a memory map.  The same file serves
// the playground's Step tab and the page `tinyc step -o run.html` writes (it has no other dependency).
(function (global) {
  "use strict";

  function hexBytes(hex) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  function b64Bytes(text) {
    const raw = atob(text), out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  // Replay: the machine's memory at any step, reached by applying steps' changes forward (new bytes) or
  // undoing them backward (old bytes), so step n shows the same state however it was reached.
  class Replay {
    constructor(trace) {
      this.trace = trace;
      const steps = trace.steps;
      this.mem = new Uint8Array(trace.memory.size);
      for (const [address, chunk] of trace.memory.initial) this.mem.set(b64Bytes(chunk), address);
      this.at = -1;
      this.outputEnd = new Int32Array(steps.length);
      this.globalsAt = new Int32Array(steps.length);
      const parts = [];
      let length = 0, g = -1;
      steps.forEach((s, i) => {
        if (s.o) { parts.push(s.o); length += s.o.length; }
        if (s.g !== undefined) g = s.g;
        this.outputEnd[i] = length;
        this.globalsAt[i] = g;
      });
      this.output = parts.join("");
      this.depthOf = trace.stacks.map(() => 0);
      trace.stacks.forEach((entry, i) => { this.depthOf[i] = entry[0] < 0 ? 0 : this.depthOf[entry[0]] + 1; });
    }

    depth(n) { return this.depthOf[this.trace.steps[n].t]; }

    goTo(n) {
      const steps = this.trace.steps;
      n = Math.max(-1, Math.min(n, steps.length - 1));
      while (this.at < n) {
        this.at++;
        for (const [address, now] of steps[this.at].m || []) this.mem.set(hexBytes(now), address);
      }
      while (this.at > n) {
        const changes = steps[this.at].m || [];
        for (let i = changes.length - 1; i >= 0; i--) this.mem.set(hexBytes(changes[i][2]), changes[i][0]);
        this.at--;
      }
      return this.at;
    }

    read(variable, index) {
      const size = variable.type === "int" ? this.trace.memory.int_size : 1;
      const at = variable.address + (index || 0) * size;  // an array's address is its pointer
      if (at < 0 || at + size > this.mem.length) return null;
      let v = 0;
      for (let i = size - 1; i >= 0; i--) v = v * 256 + this.mem[at + i];
      const top = Math.pow(2, 8 * size);
      return v >= top / 2 ? v - top : v;
    }

    value(variable) { return variable.length ? variable.address : this.read(variable, 0); }

    chain(n) {  // the stack at step n: [{frame, site}] outermost first
      const out = [];
      for (let sid = this.trace.steps[n].t; sid >= 0; sid = this.trace.stacks[sid][0]) {
        const [, fid, site] = this.trace.stacks[sid];
        out.unshift({ frame: this.trace.frames[fid], site });
      }
      return out;
    }

    // The state at step n, as window.tinyc.stepTo(n) gives it (docs/stepper.md).
    state(n) {
      this.goTo(n);
      const t = this.trace, s = t.steps[n], span = t.spans[s.n];
      const chain = this.chain(n);
      const frames = chain.map((c, i) => {
        const below = chain[i + 1];
        const locals = {};
        for (const v of c.frame.locals) locals[v.name] = { address: v.address, size: v.size, value: this.value(v) };
        return { function: c.frame.function, line: below && below.site !== null ? t.spans[below.site][0] : span[0], locals };
      });
      return {
        step: n, kind: s.k, line: span[0], columns: [span[1], span[3]], expression: spanText(t.source, span),
        value: s.v === undefined ? null : s.v, frames, output: this.output.slice(0, this.outputEnd[n]),
      };
    }
  }

  function spanText(source, span) {
    const line = source.split("\n")[span[0] - 1] || "";
    return line.slice(span[1] - 1, span[2] === span[0] ? span[3] - 1 : line.length);
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  const BUTTONS = [
    ["step-prev-statement", "◀◀ statement", "previous statement (Shift+←)"],
    ["step-prev", "◀ step", "previous small step (←)"],
    ["step-into", "step ▶", "next small step: each operand, call and value (→)"],
    ["step-next", "statement ▶▶", "next statement, into calls (Shift+→)"],
    ["step-over", "over ⤼", "next statement in this function, over calls (O)"],
    ["step-continue", "to breakpoint ▶|", "run to the next breakpoint (C); click a line number to set one"],
  ];

  // The stepper's page parts inside `root` (the element #stepper) for `trace`; returns its controller.
  function mount(root, trace) {
    root.textContent = "";
    root.classList.add("tinyc-stepper");
    root.tabIndex = 0;
    if (!trace.steps.length) {
      root.append(el("pre", { id: "step-report", class: "step-report",
        text: (trace.report || trace.message || "the program ran no statement of its text") }));
      return { goTo() { return null; }, replay: null, n: -1 };
    }
    const replay = new Replay(trace);
    const breakpoints = new Set();
    const ctl = { replay, n: 0, breakpoints };
    const controls = el("div", { class: "step-controls" });
    for (const [id, label, title] of BUTTONS) controls.append(el("button", { id, title, text: label, type: "button" }));
    const slider = el("input", { id: "step-slider", type: "range", min: "0", max: String(trace.steps.length - 1), value: "0" });
    const counter = el("span", { id: "step-counter", class: "step-counter" });
    controls.append(slider, counter);
    const message = el("div", { id: "step-message", class: "step-message",
      text: trace.message ? trace.message : "" });
    const source = el("div", { id: "step-source", class: "step-source" });
    const lines = trace.source.split("\n");
    const lineEls = lines.map((text, i) => {
      const gutter = el("span", { class: "gutter", text: String(i + 1), title: "click: breakpoint" });
      gutter.addEventListener("click", () => ctl.toggleBreakpoint(i + 1));
      const row = el("div", { class: "line", "data-line": String(i + 1) }, gutter, el("span", { class: "code", text: text || " " }));
      source.append(row);
      return row;
    });
    const now = el("div", { id: "step-now", class: "step-now" });
    const frames = el("div", { id: "frames", class: "frames" });
    const map = el("div", { id: "memory-map", class: "memory-map" });
    const output = el("pre", { id: "step-output", class: "step-output" });
    const report = el("pre", { id: "step-error", class: "step-error" });
    root.append(controls, message, el("div", { class: "step-body" },
      el("div", { class: "step-left" }, source, now),
      el("div", { class: "step-right" },
        el("h3", { text: "Call stack" }), frames,
        el("h3", { text: "Output so far" }), output, report,
        el("h3", { text: "Memory map" }), map)));

    // a breakpoint on line `line` (from 1) set or cleared; onbreakpoint tells the page (the playground's editor)
    ctl.toggleBreakpoint = (line) => {
      if (breakpoints.has(line)) breakpoints.delete(line); else breakpoints.add(line);
      if (lineEls[line - 1]) lineEls[line - 1].classList.toggle("breakpoint", breakpoints.has(line));
      if (ctl.onbreakpoint) ctl.onbreakpoint(line, breakpoints.has(line));
      return breakpoints.has(line);
    };
    const steps = trace.steps;
    const find = (from, dir, ok) => { for (let m = from + dir; m >= 0 && m < steps.length; m += dir) if (ok(m)) return m; return from; };
    const isStatement = (m) => steps[m].k === "s";
    const actions = {
      "step-prev": () => ctl.n - 1,
      "step-into": () => ctl.n + 1,
      "step-prev-statement": () => find(ctl.n, -1, isStatement),
      "step-next": () => find(ctl.n, 1, isStatement),
      "step-over": () => { const d = replay.depth(ctl.n); return find(ctl.n, 1, (m) => isStatement(m) && replay.depth(m) <= d); },
      "step-continue": () => find(ctl.n, 1, (m) => isStatement(m) && breakpoints.has(trace.spans[steps[m].n][0])),
    };
    for (const [id, act] of Object.entries(actions)) controls.querySelector("#" + id).addEventListener("click", () => ctl.goTo(act()));
    slider.addEventListener("input", () => ctl.goTo(Number(slider.value)));
    root.addEventListener("keydown", (e) => {
      const key = e.key === "ArrowRight" ? (e.shiftKey ? "step-next" : "step-into")
        : e.key === "ArrowLeft" ? (e.shiftKey ? "step-prev-statement" : "step-prev")
        : e.key === "o" ? "step-over" : e.key === "c" ? "step-continue" : null;
      if (key) { e.preventDefault(); ctl.goTo(actions[key]()); }
    });

    let marked = [];
    ctl.goTo = (n) => {
      n = Math.max(0, Math.min(n, steps.length - 1));
      ctl.n = n;
      const state = replay.state(n), s = steps[n], span = trace.spans[s.n];
      slider.value = String(n);
      counter.textContent = `step ${n} of ${steps.length - 1}` + (s.k === "s" ? " · statement" : s.k === "c" ? " · call" : " · expression");
      for (const m of marked) m.classList.remove("current", "current-statement");
      marked = [];
      for (let line = span[0]; line <= span[2]; line++) {
        const row = lineEls[line - 1];
        if (row) { row.classList.add(s.k === "s" ? "current-statement" : "current"); marked.push(row); }
      }
      highlight(lineEls, span, s.k);
      if (marked[0]) marked[0].scrollIntoView({ block: "nearest" });
      const args = s.a ? ` with ${s.a.join(", ")}` : "";
      now.textContent = s.k === "s" ? `next: ${state.expression}` : s.k === "c" ? `call ${state.expression}${args}`
        : `${state.expression}${args}  →  ${s.v}`;
      showFrames(frames, state, replay, n);
      output.textContent = state.output;
      const err = trace.error && trace.error.step === n;
      report.textContent = err ? trace.report : "";
      report.hidden = !err;
      showMemory(map, trace, replay, n);
      ctl.state = state;
      if (ctl.onstep) ctl.onstep(state);
      return state;
    };
    ctl.goTo(0);
    return ctl;
  }

  function highlight(lineEls, span, kind) {
    for (const row of lineEls) {
      const code = row.querySelector(".code");
      if (code.dataset.marked) { code.textContent = code.textContent; delete code.dataset.marked; }
    }
    if (kind === "s") return;
    const row = lineEls[span[0] - 1];
    if (!row) return;
    const code = row.querySelector(".code"), text = code.textContent;
    const end = span[2] === span[0] ? span[3] - 1 : text.length;
    code.textContent = "";
    code.append(text.slice(0, span[1] - 1), el("mark", { class: "expr", text: text.slice(span[1] - 1, end) }), text.slice(end));
    code.dataset.marked = "1";
  }

  function changed(step, variable) {
    const lo = variable.address, hi = lo + variable.size;
    return (step.m || []).some(([a, now]) => a < hi && a + now.length / 2 > lo);
  }

  function showFrames(box, state, replay, n) {
    box.textContent = "";
    const chain = replay.chain(n), step = replay.trace.steps[n];
    state.frames.forEach((f, i) => {
      const table = el("table", { class: "locals" });
      for (const v of chain[i].frame.locals) {
        const row = el("tr", { "data-name": v.name }, el("td", { text: v.name }), el("td", { class: "value", text: shown(replay, v) }),
          el("td", { class: "address", text: `@${v.address} · ${v.size} B` }));
        if (changed(step, v)) row.classList.add("changed");
        table.append(row);
      }
      box.append(el("div", { class: "frame" + (i === state.frames.length - 1 ? " innermost" : "") },
        el("div", { class: "frame-head", text: `${f.function}  line ${f.line}` }), table));
    });
  }

  function shown(replay, v) {
    if (!v.length) return String(replay.read(v, 0));
    const n = Math.min(v.length, 8), items = [];
    for (let i = 0; i < n; i++) items.push(replay.read(v, i));
    if (v.type === "char") return `→${v.address} "${chars(replay, v.address, 24)}"`;
    return `→${v.address} [${items.join(", ")}${v.length > n ? ", …" : ""}]`;
  }

  function chars(replay, at, most) {
    let s = "";
    for (let i = 0; i < most && at + i < replay.mem.length; i++) {
      const c = replay.mem[at + i];
      if (c === 0) return s;
      s += c === 10 ? "\\n" : String.fromCharCode(c);
    }
    return s + "…";
  }

  const MAX_ELEMENTS = 16;

  // The memory map: each region a bar (start, end, bytes); the globals and each running function's
  // frame as labelled cells with bytes and value, arrays as rows of elements, and an arrow from a
  // variable whose value is an address of another variable's cell to that cell.
  function showMemory(box, trace, replay, n) {
    box.textContent = "";
    const strip = el("div", { class: "regions" });
    const regions = [...trace.regions].sort((a, b) => a.start - b.start);
    const total = trace.memory.size;
    for (const r of regions) {
      strip.append(el("div", { class: "region", title: `${r.name}: ${r.start}..${r.end - 1} (${r.end - r.start} bytes)` },
        el("b", { text: r.name }), el("span", { text: ` ${r.start}–${r.end - 1} · ${r.end - r.start} B` })));
    }
    strip.append(el("div", { class: "region size", text: `memory: ${total} bytes, shown by region` }));
    box.append(strip);
    const cells = new Map();  // address -> cell element, for the arrows
    const vars = [];
    const group = (title, variables) => {
      const g = el("div", { class: "cells" }, el("div", { class: "cells-head", text: title }));
      for (const v of variables) {
        const cell = el("div", { class: "cell", "data-name": v.name, title: `${v.type} ${v.name} @${v.address}` },
          el("div", { class: "cell-name", text: v.name + (v.length ? `(${v.length - 1})` : "") }));
        if (changed(trace.steps[n], v)) cell.classList.add("changed");
        if (v.length && cells.has(v.address)) {  // an array name pointing into a variable shown already
          cell.append(el("div", { class: "cell-bytes", text: `points to @${v.address}` }),
            el("div", { class: "cell-value", text: cells.get(v.address).title || "" }));
          vars.push([v, cell, v.address]);
        } else if (v.length) {
          const row = el("div", { class: "elements" });
          const size = v.type === "int" ? trace.memory.int_size : 1;
          for (let i = 0; i < Math.min(v.length, MAX_ELEMENTS); i++) {
            const e = el("span", { class: "element", title: `${v.name}(${i}) @${v.address + i * size}`,
              text: v.type === "char" ? charOf(replay.read(v, i)) : String(replay.read(v, i)) });
            cells.set(v.address + i * size, e);
            row.append(e);
          }
          if (v.length > MAX_ELEMENTS) row.append(el("span", { class: "more", text: `… ${v.length - MAX_ELEMENTS} more` }));
          cell.append(el("div", { class: "cell-bytes", text: `@${v.address} · ${v.size} B` }), row);
        } else {
          const size = v.type === "int" ? trace.memory.int_size : 1;
          const bytes = Array.from(replay.mem.slice(v.address, v.address + size), (b) => b.toString(16).padStart(2, "0")).join(" ");
          cell.append(el("div", { class: "cell-bytes", text: `@${v.address} · ${bytes}` }),
            el("div", { class: "cell-value", text: String(replay.read(v, 0)) }));
          cells.set(v.address, cell);
          if (v.type === "int") vars.push([v, cell, replay.read(v, 0)]);
        }
        g.append(cell);
      }
      box.append(g);
    };
    const g = replay.globalsAt[n];
    if (g >= 0 && trace.globals[g].length) group("globals", trace.globals[g]);
    for (const c of replay.chain(n)) if (c.frame.locals.length) group(`frame of ${c.frame.function}`, c.frame.locals);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "arrows");
    box.append(svg);
    requestAnimationFrame(() => arrows(box, svg, vars, cells, replay));
  }

  function charOf(c) { return c > 32 && c < 127 ? String.fromCharCode(c) : c === 0 ? "\\0" : c === 10 ? "\\n" : String(c); }

  function arrows(box, svg, vars, cells, replay) {
    const base = box.getBoundingClientRect();
    svg.setAttribute("width", box.scrollWidth);
    svg.setAttribute("height", box.scrollHeight);
    svg.innerHTML = '<defs><marker id="arrowhead" markerWidth="8" markerHeight="6" refX="8" refY="3" orient="auto">'
      + '<path d="M0,0 L8,3 L0,6 z" fill="#c0392b"/></marker></defs>';
    for (const [v, cell, address] of vars) {
      const target = cells.get(address);
      if (!target || target === cell) continue;
      const a = cell.getBoundingClientRect(), b = target.getBoundingClientRect();
      const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
      const x1 = a.right - base.left, y1 = a.top + a.height / 2 - base.top;
      const x2 = b.left + b.width / 2 - base.left, y2 = b.top - base.top;
      line.setAttribute("d", `M${x1},${y1} C${x1 + 40},${y1} ${x2},${y2 - 40} ${x2},${y2}`);
      line.setAttribute("class", "arrow");
      line.setAttribute("marker-end", "url(#arrowhead)");
      line.dataset.from = v.name;
      svg.append(line);
      cell.classList.add("pointer");
    }
  }

  global.TinycStepper = { Replay, mount };
})(typeof window !== "undefined" ? window : globalThis);
