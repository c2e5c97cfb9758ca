"""A stand-in for another code-running MCP server, over stdio: one tool that evaluates Python, named and
shaped like mcp-run-python's (``run_python_code`` with a ``python_code`` argument).

The benchmarks' peer section is tested against it (``python tests/bench/fake_peer.py``), since the real peer it
is meant for needs Deno and packages from outside the usual registries. It runs code from the test only.
"""

from __future__ import annotations

import ast

from mcp.server import MCPServer

server = MCPServer("fake-peer")


@server.tool()
def run_python_code(python_code: str) -> str:
    """Run ``python_code``; the value of its last line, when that is an expression, is the result."""
    tree = ast.parse(python_code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    scope: dict[str, object] = {}
    exec(compile(tree, "<code>", "exec"), scope)
    if last is None:
        return ""
    return repr(eval(compile(ast.Expression(last.value), "<code>", "eval"), scope))


if __name__ == "__main__":
    server.run("stdio")
