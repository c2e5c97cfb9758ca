"""Upstream MCP servers: the user's other servers, whose tools code running in the sandbox can call (code mode).

``config`` reads the ``--upstream`` file (the ``mcpServers`` format of Claude Desktop and Cursor, or VS Code's
``servers``); ``connection``, ``transport`` and ``group`` keep one live client connection per configured
server. ``policy`` decides
what each tool may do and what ``execute_js_with_tools`` may claim; ``directory`` is the live view the tool works
from; ``service`` answers the running code's ``tools.*`` calls (``failures`` names how one can fail); ``question``
builds what the user is asked before a call, which ``consent`` asks through elicitation; ``escapes`` makes text
from code or a server safe to show and to log.
``catalog``, ``declarations``, ``typescript``, ``schemas`` and ``search`` describe, check and find the tools.
"""
