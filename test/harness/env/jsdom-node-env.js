/**
 * Jest's jsdom environment plus the Node globals that the MCP SDK and node:http code need
 * (fetch, Request/Response, streams, TextEncoder...), which the plain jsdom environment hides.
 * For tests that run the plugin's real server and also need a DOM that CodeMirror can run in
 * (Markdown views with a real EditorView). Use with `/** @jest-environment ./test/harness/env/jsdom-node-env.js *\/`.
 */
const { TestEnvironment } = require('jest-environment-jsdom');

const NODE_GLOBALS = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'TextEncoderStream',
  'TextDecoderStream',
  'TextEncoder',
  'TextDecoder',
  'AbortController',
  'AbortSignal',
  'structuredClone',
  'setImmediate',
  'clearImmediate',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'MessageChannel',
  'MessagePort',
  'BroadcastChannel',
];

class JsdomWithNodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // Resolve packages as Node does (the SDK's client would otherwise load its browser build).
    this.customExportConditions = ['node', 'node-addons'];
    // jsdom does no layout: CodeMirror's measuring (after scrollIntoView) asks a Range for its
    // rectangles, which jsdom lacks. Empty rectangles are what a zero-size layout gives.
    const range = this.global.Range.prototype;
    range.getClientRects ??= function getClientRects() {
      return [];
    };
    range.getBoundingClientRect ??= function getBoundingClientRect() {
      return { x: 0, y: 0, width: 0, height: 0, top: 0, left: 0, right: 0, bottom: 0 };
    };
    for (const name of NODE_GLOBALS) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithNodeEnvironment;
