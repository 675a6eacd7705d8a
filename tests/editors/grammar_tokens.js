// Tokenizes files with the extension's TextMate grammar, as VS Code does (vscode-textmate + vscode-oniguruma):
//   node grammar_tokens.js GRAMMAR FILE...
// prints JSON: for each file, a list of [line, start, end, scopes] (line from 0, columns in UTF-16 units).
'use strict';
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

async function main() {
  const [grammarPath, ...files] = process.argv.slice(2);
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: sources => new oniguruma.OnigScanner(sources),
      createOnigString: s => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath),
  });
  const grammar = await registry.loadGrammar('source.tinyc');
  const out = {};
  for (const file of files) {
    const lines = fs.readFileSync(file, 'latin1').split('\n');
    let state = vsctm.INITIAL;
    const tokens = [];
    lines.forEach((line, n) => {
      const result = grammar.tokenizeLine(line, state);
      for (const t of result.tokens) tokens.push([n, t.startIndex, Math.min(t.endIndex, line.length), t.scopes]);
      state = result.ruleStack;
    });
    out[file] = tokens;
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch(e => { console.error(e && e.stack || e); process.exit(1); });
