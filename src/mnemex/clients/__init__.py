"""Agent clients: registering mnemex's MCP server with them and adding session hooks."""
