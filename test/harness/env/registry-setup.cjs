// Jest globalSetup: one throwaway vault registry folder for the whole run, made before the test
// workers start so that they inherit it (boot-plugin.ts would otherwise make one per worker, which
// Jest's sandboxed `process` cannot remove at exit). registry-teardown.cjs removes it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

module.exports = function makeRunRegistry() {
  if (!process.env.VAULT_MCP_REGISTRY_DIR) {
    process.env.VAULT_MCP_REGISTRY_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-mcp-registry-'));
    process.env.VAULT_MCP_REGISTRY_DIR_MADE_BY_JEST = process.env.VAULT_MCP_REGISTRY_DIR;
  }
};
