// Jest globalTeardown: removes the vault registry folder registry-setup.cjs made for this run.
const fs = require('node:fs');

module.exports = function removeRunRegistry() {
  const made = process.env.VAULT_MCP_REGISTRY_DIR_MADE_BY_JEST;
  if (made) fs.rmSync(made, { recursive: true, force: true });
};
