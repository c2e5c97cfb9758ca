"""Tests of calling the tools of other MCP servers from the sandbox."""
