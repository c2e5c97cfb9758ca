"""Upstream MCP servers: the user's other servers, whose tools code running in the sandbox can call.

``config`` reads the ``--upstream`` file (the ``mcpServers`` format of Claude Desktop and Cursor, or VS Code's
``servers``); ``connection`` keeps one live client connection per configured server (``transport`` is how it
reaches one through the SDK), and ``group`` starts and stops them all together.
"""
