// Linked views (issue 37): a click on a line of the Tokens or AST view selects, in the editor, the source
// span that line names (`7:10` and its text in the tokens view, `8:6-8:9` in the AST view).
"use strict";

// The editor span {from, to} (CodeMirror positions) a view line names, or null.
function viewLineSpan(line) {
  const ast = /\s(\d+):(\d+)-(\d+):(\d+)\s/.exec(line);
  if (ast) return {from: {line: ast[1] - 1, ch: ast[2] - 1}, to: {line: ast[3] - 1, ch: ast[4] - 1}};
  const token = /^\s*(\d+):(\d+)\s+\S+\s+(\S+)/.exec(line);
  if (token) return {from: {line: token[1] - 1, ch: token[2] - 1}, to: {line: token[1] - 1, ch: token[2] - 1 + token[3].length}};
  return null;
}

// Select the span of the view's line `index` (from 0) in the editor; the span, or null.
tinyc.selectViewLine = function (index) {
  const view = $("view").dataset.view;
  if (view !== "tokens" && view !== "ast") return null;
  const span = viewLineSpan($("view").textContent.split("\n")[index] || "");
  if (span) { editor.setSelection(span.from, span.to); editor.scrollIntoView(span.from, 60); }
  return span;
};

$("view").addEventListener("click", () => {
  const selection = window.getSelection();
  if (!selection.isCollapsed || !$("view").contains(selection.anchorNode)) return;
  const range = document.createRange();
  range.setStart($("view"), 0);
  range.setEnd(selection.anchorNode, selection.anchorOffset);
  tinyc.selectViewLine(range.toString().split("\n").length - 1);
});
