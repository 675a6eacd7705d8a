// Linked views (issue 37), both ways.  Each line of the Tokens, Parse tree, AST and Link map views that
// names a piece of the program gets its source span {from, to} (CodeMirror positions): a click on the line
// selects that span in the editor, and placing the editor's cursor selects (highlights and scrolls to) the
// innermost line whose span holds it.  The spans come from the view's own text: `7:10 TYPE text` (tokens),
// `8:6-8:9` (AST), a function's `line 7`/`5:1` and size in bytes (link map); the parse tree shows no
// positions, so its tokens are matched in order with the Tokens view's and a rule spans its first to last token.
// The Generated Python with an optimisation switched off marks the lines it does not share with the code
// with every optimisation.
"use strict";

const linked = {view: "", spans: [], selected: -1, fromView: false};

const before = (a, b) => a.line < b.line || (a.line === b.line && a.ch <= b.ch);

function tokenSpan(line) {
  const token = /^\s*(\d+):(\d+)\s+(\S+)\s+(\S+)/.exec(line);
  if (!token) return null;
  const from = {line: token[1] - 1, ch: token[2] - 1};
  let length = token[4].length;
  const source = editor.getLine(from.line) || "";
  if (/^["']/.test(token[4])) {  // a string or character may hold blanks: to its closing quote
    const close = source.indexOf(token[4][0], from.ch + 1);
    if (close > from.ch) length = close + 1 - from.ch;
  }
  return {from, to: {line: from.line, ch: from.ch + length}, type: token[3], text: token[4]};
}

// The editor span a line of the view `view` names, or null (parse-tree lines: parseSpans).
function viewLineSpan(view, line) {
  if (view === "tokens") return tokenSpan(line);
  if (view === "ast") {
    const ast = /\s(\d+):(\d+)-(\d+):(\d+)\s/.exec(line);
    return ast && {from: {line: ast[1] - 1, ch: ast[2] - 1}, to: {line: ast[3] - 1, ch: ast[4] - 1}};
  }
  if (view === "link") {  // a function: its text, from where it starts, `size` bytes
    const fn = /\sfunction\s+(\d+) bytes\s+@\d+\s+(?:text, line (\d+)|(\d+):(\d+))/.exec(line);
    if (!fn) return null;
    const at = fn[2] ? {line: fn[2] - 1, ch: 0} : {line: fn[3] - 1, ch: fn[4] - 1};
    const from = fn[2] ? {line: at.line, ch: editor.getLine(at.line)?.search(/\S|$/) ?? 0} : at;
    return {from, to: editor.posFromIndex(editor.indexFromPos(from) + Number(fn[1]))};
  }
  return null;
}

// The parse tree's spans: each token line (`TYPE 'text'`) is the next token of the Tokens view with that
// type and text; a rule line spans its indented children.
function parseSpans(lines, tokensText) {
  const tokens = tokensText.split("\n").map(tokenSpan).filter(Boolean);
  let next = 0;
  const spans = lines.map((line) => {
    const leaf = /^\s*([A-Z_0-9]+) (['"])(.*)\2$/.exec(line);
    if (!leaf) return null;
    const text = leaf[3].split(/\s/)[0];
    let k = next;
    while (k < tokens.length && !(tokens[k].type === leaf[1] && tokens[k].text.startsWith(text))) k++;
    if (k === tokens.length) return null;
    next = k + 1;
    return tokens[k];
  });
  const depth = (line) => line.search(/\S/);
  for (let i = lines.length - 1; i >= 0; i--) {  // a rule: from its first child's start to its last child's end
    if (spans[i] || !/^\s*[a-z_]\w*$/.test(lines[i])) continue;
    for (let j = i + 1; j < lines.length && depth(lines[j]) > depth(lines[i]); j++) {
      const s = spans[j];
      if (!s) continue;
      if (!spans[i]) spans[i] = {from: s.from, to: s.to};
      else if (before(spans[i].to, s.to)) spans[i].to = s.to;
    }
  }
  return spans;
}

// The view shown is complete (app.js sets #view's data-view): its lines' spans.
async function viewShown() {
  const view = $("view").dataset.view;
  linked.view = view;
  linked.spans = [];
  $("view").dataset.spans = "";
  if (window.CSS && CSS.highlights) CSS.highlights.delete("view-changed");
  select(-1);
  if (!view) return;
  const lines = $("view").textContent.split("\n");
  if (view === "python") return markChanged(lines);
  if (view === "parse") {
    const tokens = await tinyc.view("tokens").catch(() => "");
    if ($("view").dataset.view !== view) return;  // another view was chosen meanwhile
    linked.spans = parseSpans(lines, tokens);
  } else {
    linked.spans = lines.map((line) => viewLineSpan(view, line));
  }
  $("view").dataset.spans = String(linked.spans.filter(Boolean).length);  // ready (tests wait for it)
  cursorMoved();
}
new MutationObserver(viewShown).observe($("view"), {attributes: true, attributeFilter: ["data-view"]});

// The Generated Python with an optimisation off (#view-optimise): its lines that the code with every
// optimisation does not have (as many times) are marked, so the student sees what the optimisation changes.
async function markChanged(lines) {
  const off = $("view-optimise").value;
  $("view").dataset.changed = "";
  if (!off) return;
  const all = await tinyc.view("python").catch(() => "");
  if ($("view").dataset.view !== "python" || $("view-optimise").value !== off) return;
  const count = new Map();
  for (const line of all.split("\n").slice(1)) count.set(line, (count.get(line) || 0) + 1);
  const ranges = [];
  let at = 0;
  lines.forEach((line, i) => {
    const n = count.get(line) || 0;
    if (n) count.set(line, n - 1);
    else if (i > 0 && line.trim()) ranges.push([at, at + line.length]);  // (line 0 names the switches)
    at += line.length + 1;
  });
  $("view").dataset.changed = String(ranges.length);
  const text = $("view").firstChild;
  if (!window.CSS || !CSS.highlights || !text) return;
  CSS.highlights.set("view-changed", new Highlight(...ranges.map(([from, to]) => {
    const r = document.createRange();
    r.setStart(text, from);
    r.setEnd(text, to);
    return r;
  })));
}

// Mark line `index` of the view (-1: none) with the view-current highlight and scroll to it.
function select(index) {
  linked.selected = index;
  $("view").dataset.selected = String(index);
  if (!window.CSS || !CSS.highlights) return;
  CSS.highlights.delete("view-current");
  if (index < 0) return;
  const text = $("view").firstChild;
  const lines = $("view").textContent.split("\n");
  const start = lines.slice(0, index).join("\n").length + (index ? 1 : 0);
  if (!text || text.nodeType !== Node.TEXT_NODE) return;
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, start + lines[index].length);
  CSS.highlights.set("view-current", new Highlight(range));
  const box = $("view"), rect = range.getBoundingClientRect(), outer = box.getBoundingClientRect();
  if (rect.top < outer.top || rect.bottom > outer.bottom) box.scrollTop += rect.top - outer.top - box.clientHeight / 3;
}

// The innermost line whose span holds `pos` (the smallest; of equal ones the last: a child after its
// parent), or -1.
function innermost(pos) {
  let best = -1, size = Infinity;
  linked.spans.forEach((s, i) => {
    if (!s || !before(s.from, pos) || !before(pos, s.to)) return;
    const n = editor.indexFromPos(s.to) - editor.indexFromPos(s.from);
    if (n <= size) { best = i; size = n; }
  });
  return best;
}

function cursorMoved() {
  if (linked.fromView || !linked.spans.length || !$("pane-views").classList.contains("active")) return;
  if (editor.somethingSelected()) return;  // a selection is not a cursor placed
  select(innermost(editor.getCursor()));
}
editor.on("cursorActivity", cursorMoved);

// Select the span of the view's line `index` (from 0) in the editor; the span, or null.
tinyc.selectViewLine = function (index) {
  const span = linked.view === $("view").dataset.view ? linked.spans[index] : null;
  if (!span) return null;
  linked.fromView = true;
  try {
    editor.setSelection(span.from, span.to);
    editor.scrollIntoView(span.from, 60);
  } finally {
    linked.fromView = false;
  }
  select(index);
  return {from: span.from, to: span.to};
};

/** The view's line the editor's cursor selected: {index, text}, or null. */
tinyc.viewSelection = function () {
  if (linked.selected < 0) return null;
  return {index: linked.selected, text: $("view").textContent.split("\n")[linked.selected]};
};

$("view").addEventListener("click", () => {
  const selection = window.getSelection();
  if (!selection.isCollapsed || !$("view").contains(selection.anchorNode)) return;
  const range = document.createRange();
  range.setStart($("view"), 0);
  range.setEnd(selection.anchorNode, selection.anchorOffset);
  tinyc.selectViewLine(range.toString().split("\n").length - 1);
});
