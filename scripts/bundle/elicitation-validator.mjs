// Stands in for `@modelcontextprotocol/server/_shims` in the production bundle (see
// scripts/bundle/options.mjs). The SDK's Node shim exports the ajv-backed JSON Schema validator
// (`DefaultJsonSchemaValidator`, ajv + ajv-formats: about 150 KB minified) and `process`. The
// SDK builds validators lazily, only to check a client's answer to a form elicitation
// (elicitation/create) or to turn a raw JSON Schema into a tool schema (`fromJsonSchema`);
// Vault MCP does neither at run time. Keeps the shim's export names so its imports resolve.
import process from 'node:process';

/** A JSON Schema validator provider that refuses to build validators: Vault MCP does not elicit. */
export class DefaultJsonSchemaValidator {
  /**
   * @param {unknown} schema the JSON Schema to compile
   * @returns {never}
   * @throws {Error} always, saying that JSON Schema validation is left out of this build
   */
  getValidator(schema) {
    void schema;
    throw new Error('Vault MCP sends no elicitation requests, so this build does not validate JSON Schemas (ajv is left out of main.js).');
  }
}

export { process };
