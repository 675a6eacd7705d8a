// The tiny-c extension: the language server (`tinyc lsp`) and the debug adapter (`tinyc dap`) of the user's
// installed tinyc (the `tinyc.command` setting), and the grammar and language configuration (package.json).
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function command() {
  return vscode.workspace.getConfiguration('tinyc').get('command') || 'tinyc';
}

function activate(context) {
  const settings = vscode.workspace.getConfiguration('tinyc');
  client = new LanguageClient('tinyc', 'tiny-c language server',
    { command: command(), args: ['lsp'] },
    {
      documentSelector: [{ language: 'tinyc' }],
      initializationOptions: { tinyc: { dialect: settings.get('dialect') } },
      synchronize: { configurationSection: 'tinyc' },
    });
  client.start();
  context.subscriptions.push(vscode.debug.registerDebugAdapterDescriptorFactory('tinyc', {
    createDebugAdapterDescriptor() {
      return new vscode.DebugAdapterExecutable(command(), ['dap']);
    },
  }));
  context.subscriptions.push(vscode.debug.registerDebugConfigurationProvider('tinyc', {
    resolveDebugConfiguration(folder, config) {  // F5 with no launch.json: debug the file in the editor
      if (!config.type && !config.request && !config.name) {
        const editor = vscode.window.activeTextEditor;
        if (editor && editor.document.languageId === 'tinyc') {
          return { type: 'tinyc', request: 'launch', name: 'Debug the tiny-c file', program: '${file}' };
        }
      }
      return config.program ? config : undefined;
    },
  }));
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
