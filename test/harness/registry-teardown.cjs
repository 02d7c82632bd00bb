// Jest globalTeardown: removes the vault registry folder registry-setup.cjs made for this run.
const fs = require('node:fs');

module.exports = function removeRunRegistry() {
  if (process.env.VAULT_MCP_REGISTRY_DIR_MADE_BY_JEST !== '1') return;
  fs.rmSync(process.env.VAULT_MCP_REGISTRY_DIR, { recursive: true, force: true });
};
