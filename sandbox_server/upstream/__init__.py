"""Calling the tools of other MCP servers from the sandbox ("code mode")."""
