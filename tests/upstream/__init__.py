"""Tests of the upstream layer: the config file, and live connections to real MCP servers."""
