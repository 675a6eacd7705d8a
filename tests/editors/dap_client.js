// Drives `tinyc dap` with VS Code's own DebugClient (@vscode/debugadapter-testsupport), one scenario a run:
//   node dap_client.js SCENARIO TINYC FOLDER
// TINYC: the tinyc command (its `dap` is started as the adapter); FOLDER: where the scenario's programs are
// written.  Exit status 0 when the scenario passes; else the failure on stderr and status 1.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const [scenario, tinyc, folder] = process.argv.slice(2);
const LOOP = 'int count\nmain [\n  int i\n  while 1 [\n    i = i + 1\n  ]\n]\n';

function program(name, text) {
  const file = path.join(folder, name);
  fs.writeFileSync(file, text);
  return file;
}

function exited(dc, ms) {  // resolves with true when the adapter process ends within ms
  const proc = dc._adapterProcess;
  return new Promise(resolve => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    proc.on('exit', () => { clearTimeout(timer); resolve(true); });
  });
}

async function started(dc, file, extra) {
  await dc.start();
  await Promise.all([dc.configurationSequence(), dc.launch({ program: file, ...(extra || {}) })]);
}

async function running(dc, file) {  // the endless compiled loop, running for a while
  await started(dc, file);
  await new Promise(r => setTimeout(r, 700));
}

const scenarios = {
  async fact(dc) {
    const file = path.resolve(__dirname, '..', 'debugger', 'fact.tc');
    await dc.start();
    await Promise.all([dc.waitForEvent('initialized'), dc.launch({ program: file })]);
    const set = await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: 13, condition: 'k==3' }] });
    assert.ok(set.body.breakpoints[0].verified);
    const [, trace] = await Promise.all([dc.configurationDoneRequest(),
                                         dc.assertStoppedLocation('breakpoint', { path: file, line: 13 })]);
    assert.deepStrictEqual(trace.body.stackFrames.map(f => f.name), ['main', '(entry)']);
    // paging: startFrame and levels
    const page = await dc.stackTraceRequest({ threadId: 1, startFrame: 1, levels: 1 });
    assert.deepStrictEqual(page.body.stackFrames.map(f => f.name), ['(entry)']);
    assert.strictEqual(page.body.totalFrames, 2);
    const one = await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 1 });
    assert.deepStrictEqual(one.body.stackFrames.map(f => f.name), ['main']);
    const value = await dc.evaluateRequest({ expression: 'k', frameId: trace.body.stackFrames[0].id });
    assert.strictEqual(value.body.result, '3');
    await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent('terminated')]);
  },

  async disconnectWhileRunning(dc, file) {
    await running(dc, file);
    const started = Date.now();
    await dc.disconnectRequest({});  // answered although the program runs (DebugClient times out in 5 s)
    assert.ok(Date.now() - started < 5000);
    assert.ok(await exited(dc, 5000), 'the adapter did not exit after disconnect');
  },

  async clientGone(dc, file) {
    await running(dc, file);
    dc._adapterProcess.stdin.end();  // the editor went away: no disconnect
    assert.ok(await exited(dc, 8000), 'the adapter ran on after its client went away');
  },

  async requestsWhileRunning(dc, file) {
    await running(dc, file);
    const threads = await dc.threadsRequest();
    assert.deepStrictEqual(threads.body.threads, [{ id: 1, name: 'main' }]);
    await assert.rejects(dc.stackTraceRequest({ threadId: 1 }), /running/);
    await assert.rejects(dc.evaluateRequest({ expression: 'count' }), /running/);
    await Promise.all([dc.terminateRequest({}), dc.waitForEvent('terminated')]);
  },

  async pauseCompiledLoop(dc, file) {
    await running(dc, file);
    for (let round = 0; round < 2; round++) {  // paused, resumed, paused again
      await Promise.all([dc.pauseRequest({ threadId: 1 }), dc.waitForEvent('stopped', 15000)]);
      const trace = await dc.stackTraceRequest({ threadId: 1 });
      const top = trace.body.stackFrames[0];
      assert.strictEqual(top.name, 'main');
      assert.ok(top.line === 4 || top.line === 5, `main at line ${top.line}`);
      assert.strictEqual(top.source.path, file);
      const scopes = await dc.scopesRequest({ frameId: top.id });
      assert.strictEqual(scopes.body.scopes[0].name, 'Locals');
      const vars = await dc.variablesRequest({ variablesReference: scopes.body.scopes[0].variablesReference });
      const i = vars.body.variables.find(v => v.name === 'i');
      assert.ok(i && Number(i.value) > 0, `i is ${JSON.stringify(vars.body.variables)}`);
      const evaluated = await dc.evaluateRequest({ expression: 'i', frameId: top.id });
      assert.ok(Number(evaluated.body.result) > 0);
      await dc.continueRequest({ threadId: 1 });
      await new Promise(r => setTimeout(r, 300));
    }
    await Promise.all([dc.terminateRequest({}), dc.waitForEvent('terminated')]);
    await dc.disconnectRequest({});
  },

  async pauseAtACall(dc) {  // compiled main calls f: the pause stops in f, or in main; main shows its line
    const file = program('calls.tc', 'f int x [\n  return x + 1\n]\nmain [\n  int i\n  while 1 [\n    i = f(i)\n  ]\n]\n');
    await running(dc, file);
    await Promise.all([dc.pauseRequest({ threadId: 1 }), dc.waitForEvent('stopped', 15000)]);
    const trace = await dc.stackTraceRequest({ threadId: 1 });
    const main = trace.body.stackFrames.find(f => f.name === 'main');
    assert.ok(main.line === 6 || main.line === 7, `main at line ${main.line}: ${JSON.stringify(trace.body.stackFrames)}`);
    assert.strictEqual(main.source.path, file);
    const scopes = await dc.scopesRequest({ frameId: main.id });
    const vars = await dc.variablesRequest({ variablesReference: scopes.body.scopes[0].variablesReference });
    const i = vars.body.variables.find(v => v.name === 'i');
    assert.ok(i && Number(i.value) > 0, JSON.stringify(vars.body.variables));
    await Promise.all([dc.terminateRequest({}), dc.waitForEvent('terminated')]);
  },

  async utf8(dc) {
    const file = program('utf8.tc', 'char word(20)\nmain [\n  ps "héllo wörld"\n  word(0) = 104\n  strcpy(word, "héllo")\n  pn 1\n]\n');
    await dc.start();
    await Promise.all([dc.waitForEvent('initialized'), dc.launch({ program: file })]);
    await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [{ line: 6 }] });
    const [, trace] = await Promise.all([dc.configurationDoneRequest(), dc.assertStoppedLocation('breakpoint', { line: 6 })]);
    const out = dc.outputs || '';
    const scopes = await dc.scopesRequest({ frameId: trace.body.stackFrames[0].id });
    const globals = scopes.body.scopes.find(s => s.name === 'Globals');
    const vars = await dc.variablesRequest({ variablesReference: globals.variablesReference });
    assert.strictEqual(vars.body.variables.find(v => v.name === 'word').value, 'héllo');
    const evaluated = await dc.evaluateRequest({ expression: 'word', frameId: trace.body.stackFrames[0].id });
    assert.strictEqual(evaluated.body.result, 'héllo');
    await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent('terminated')]);
    assert.ok(collected.includes('héllo wörld'), `output was ${JSON.stringify(collected)} ${out}`);
  },

  async badCondition(dc) {
    const file = path.resolve(__dirname, '..', 'debugger', 'fact.tc');
    await dc.start();
    await Promise.all([dc.waitForEvent('initialized'), dc.launch({ program: file })]);
    const set = await dc.setBreakpointsRequest({ source: { path: file },
      breakpoints: [{ line: 5, condition: 'n==' }, { line: 13, condition: 'nothere == 1' }] });
    const [bad, runtime] = set.body.breakpoints;
    assert.strictEqual(bad.verified, false);
    assert.match(bad.message, /not a tiny-c expression/);
    assert.strictEqual(runtime.verified, true);
    const [, stop] = await Promise.all([dc.configurationDoneRequest(), dc.waitForEvent('stopped')]);  // the condition fails when evaluated: the stop says so
    assert.strictEqual(stop.body.reason, 'breakpoint');
    assert.match(stop.body.text || '', /condition nothere == 1 fails/);
    await Promise.all([dc.terminateRequest({}), dc.waitForEvent('terminated')]);
  },

  async niceties(dc) {
    const file = path.resolve(__dirname, '..', 'debugger', 'fact.tc');
    await dc.start();
    await Promise.all([dc.waitForEvent('initialized'), dc.launch({ program: file })]);
    const where = await dc.send('breakpointLocations', { source: { path: file }, line: 1, endLine: 8 });
    const lines = where.body.breakpoints.map(b => b.line);
    assert.ok(lines.includes(5) && lines.includes(6) && !lines.includes(3), JSON.stringify(lines));
    const set = await dc.setBreakpointsRequest({ source: { path: file }, breakpoints: [
      { line: 5, hitCondition: '3' }, { line: 13, logMessage: 'k is {k}' }, { line: 14, hitCondition: 'often' }] });
    assert.deepStrictEqual(set.body.breakpoints.map(b => b.verified), [true, true, false]);
    const sources = await dc.send('loadedSources', {});
    assert.deepStrictEqual(sources.body.sources.map(s => s.path), [file]);
    for (let run = 0; run < 2; run++) {  // the second time after a restart
      const [, trace] = await Promise.all([run ? dc.restartRequest({}) : dc.configurationDoneRequest(),
                                           dc.assertStoppedLocation('breakpoint', { line: 5 })]);
      const top = trace.body.stackFrames[0];
      assert.strictEqual((await dc.evaluateRequest({ expression: 'n', frameId: top.id })).body.result, '1');
      assert.strictEqual((await dc.evaluateRequest({ expression: 'k', frameId: trace.body.stackFrames.find(f => f.name === 'main').id })).body.result, '2');
      assert.ok(collected.endsWith('k is 1\nk is 2\n'), JSON.stringify(collected));
      collected = '';
      const scopes = await dc.scopesRequest({ frameId: top.id });
      const set = await dc.setVariableRequest({ variablesReference: scopes.body.scopes[0].variablesReference, name: 'n', value: '6+1' });
      assert.strictEqual(set.body.value, '7');
      assert.strictEqual((await dc.evaluateRequest({ expression: 'n', frameId: top.id })).body.result, '7');
      const expr = await dc.send('setExpression', { expression: 'total', value: '100', frameId: top.id });
      assert.strictEqual(expr.body.value, '100');
    }
    await Promise.all([dc.terminateRequest({}), dc.waitForEvent('terminated')]);
  },

  async exceptionFilter(dc) {
    const file = program('error.tc', 'main [\n  int a(3)\n  pn a(7)\n]\n');
    for (const filters of [['errors'], []]) {
      await dc.start();
      await Promise.all([dc.waitForEvent('initialized'), dc.launch({ program: file })]);
      await dc.setExceptionBreakpointsRequest({ filters });
      let stops = 0;
      dc.on('stopped', () => { stops += 1; });
      const ended = dc.waitForEvent('terminated');
      await dc.configurationDoneRequest();
      if (filters.length) {
        const stop = await dc.waitForEvent('stopped');
        assert.strictEqual(stop.body.reason, 'exception');
        await dc.continueRequest({ threadId: 1 });
      }
      await ended;
      assert.strictEqual(stops, filters.length ? 1 : 0);
      assert.match(collected, /err\s*6|error 6|RANGERR|6/);
      collected = '';
      dc.removeAllListeners('stopped');
      await dc.stop();
    }
  },
};

let collected = '';
async function main() {
  const dc = new DebugClient(tinyc, 'dap', 'tinyc');
  dc.defaultTimeout = 20000;
  dc.on('output', e => { collected += e.body.output; });
  const file = program('loop.tc', LOOP);
  try {
    await scenarios[scenario](dc, file);
  } finally {
    dc.stopAdapter();
  }
}

main().then(() => process.exit(0), e => { console.error(e && e.stack || e); process.exit(1); });
