"""The local web page (``mnemex ui``): the same core functions as the CLI and the MCP
server, shown in a browser on 127.0.0.1."""
