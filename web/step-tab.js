// The playground's Step tab (issue 37, docs/stepper.md): record a run of the editor's program in the worker
// (glue.record), then step through it with the stepper (stepper.js, shared with `tinyc step -o`).  The
// editor marks the current statement and, in a small step, the sub-expression.  Adds to window.tinyc:
// record({entry, stdin, limit, dialect}) -> Promise of {steps, status, output}; stepTo(n) -> Promise of the state.
"use strict";

const stepTab = {stepper: null, trace: null, marks: []};

function markEditor(state) {
  for (const m of stepTab.marks) m.clear();
  stepTab.marks = [];
  const span = stepTab.trace.spans[stepTab.trace.steps[state.step].n];
  const line = span[0] - 1;
  stepTab.marks.push(editor.markText({line, ch: 0}, {line: span[2] - 1, ch: span[2] === span[0] ? span[3] - 1 : 9999},
    {className: state.kind === "s" ? "cm-step-statement" : "cm-step-line"}));
  if (state.kind !== "s") {
    stepTab.marks.push(editor.markText({line, ch: span[1] - 1}, {line: span[2] - 1, ch: span[3] - 1},
      {className: "cm-step-expression"}));
  }
  editor.scrollIntoView({line, ch: 0}, 60);
}

// A program refused before it ran (a syntax error: the stepper shows its report): its first error's line marked.
function markError(error) {
  for (const m of stepTab.marks) m.clear();
  stepTab.marks = [];
  if (!error || !(error.line > 0) || error.line > editor.lineCount()) return;
  stepTab.marks.push(editor.markText({line: error.line - 1, ch: 0}, {line: error.line - 1, ch: 9999}, {className: "error-line"}));
  editor.scrollIntoView({line: error.line - 1, ch: 0}, 60);
}

tinyc.record = function (options = {}) {
  const args = program(options);
  const refused = refusal(args.source);
  const root = $("stepper");
  if (refused) {
    root.textContent = refused.stderr;
    return Promise.resolve({steps: 0, status: "error", output: ""});
  }
  $("step-state").textContent = "recording…";
  showTab("step");
  return call("record", {...args, limit: options.limit || null}).then((json) => {
    const trace = JSON.parse(json);
    stepTab.trace = trace;
    stepTab.stepper = TinycStepper.mount(root, trace);
    stepTab.stepper.onstep = markEditor;
    stepTab.stepper.onbreakpoint = (line, on) => {
      editor[on ? "addLineClass" : "removeLineClass"](line - 1, "gutter", "cm-step-breakpoint");
    };
    for (let line = 0; line < editor.lineCount(); line++) editor.removeLineClass(line, "gutter", "cm-step-breakpoint");
    if (trace.steps.length) markEditor(stepTab.stepper.goTo(0));
    else markError(trace.error);
    $("step-state").textContent = `${trace.steps.length} steps, ${trace.status}` + (trace.message ? `: ${trace.message}` : "");
    root.focus();
    return {steps: trace.steps.length, status: trace.status, output: trace.output};
  });
};

tinyc.stepTo = function (n) {
  if (!stepTab.stepper) return Promise.reject(new Error("nothing recorded: call tinyc.record() first"));
  return Promise.resolve(stepTab.stepper.goTo(n));
};

$("step-record").onclick = () => tinyc.record();
// a click on the editor's line numbers sets a breakpoint of the stepper (to breakpoint ▶| runs to it)
editor.on("gutterClick", (cm, line) => { if (stepTab.stepper && stepTab.stepper.toggleBreakpoint) stepTab.stepper.toggleBreakpoint(line + 1); });
