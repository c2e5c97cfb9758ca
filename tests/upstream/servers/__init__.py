"""Real MCP servers for the upstream tests, written with the SDK; each runs over stdio, or over Streamable HTTP
with ``--http PORT`` (127.0.0.1 only; ``--port-file PATH`` receives the port, useful with ``--http 0``)."""
