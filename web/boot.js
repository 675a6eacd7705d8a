// The first script of the page (index.html's head): starts the Python worker (worker.js) at once, so that
// Pyodide loads while the browser fetches and parses the editor, the terminal and app.js; app.js takes
// the worker over, with the messages it sent before app.js ran.
"use strict";
performance.mark("worker-created");
window.tinycBoot = {worker: new Worker("worker.js"), messages: []};
window.tinycBoot.worker.onmessage = (event) => window.tinycBoot.messages.push(event);
