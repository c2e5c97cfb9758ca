"""How MCP reaches the server: over stdio (:mod:`.stdio`), the way desktop clients launch it, or over Streamable
HTTP (:mod:`.http`), when many clients share one server. Both admit requests by the memory they hold
(:mod:`sandbox_server.backlog`) before the server sees them."""
