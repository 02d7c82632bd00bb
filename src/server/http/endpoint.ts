/**
 * The MCP endpoint path on the loopback server (a leaf module: the settings tab shows the URL
 * without loading the server and the MCP SDK).
 */
export const MCP_PATH = '/mcp';
