/**
 * SecretStorage id of the AI provider's API key (`app.secretStorage`, Obsidian 1.11.4+; ids
 * are lowercase letters, digits and dashes). Never stored in data.json.
 */
export const AI_API_KEY_SECRET_ID = 'vault-mcp-ai-api-key';
