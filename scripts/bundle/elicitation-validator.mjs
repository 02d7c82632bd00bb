// Stands in for @modelcontextprotocol/sdk/validation/ajv-provider.js in the production bundle
// (see scripts/bundle/options.mjs): the SDK's Server constructs it at start-up and uses it only
// to validate a client's answer to a form elicitation (MCP spec, elicitation/create), which
// Vault MCP never requests. Keeps the SDK's export name so its import resolves.

/** A JSON Schema validator provider that refuses to build validators: Vault MCP does not elicit. */
export class AjvJsonSchemaValidator {
  /**
   * @param {unknown} schema the elicitation's requestedSchema
   * @returns {never}
   * @throws {Error} always, saying that elicitation answers are not validated in this build
   */
  getValidator(schema) {
    void schema;
    throw new Error('Vault MCP sends no elicitation requests, so this build does not validate elicitation answers (ajv is left out of main.js).');
  }
}
