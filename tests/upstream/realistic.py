"""Tool definitions shaped like those real MCP servers publish, shared by the tests of this folder."""

from __future__ import annotations

from typing import Any

SEARCH_ISSUES: dict[str, Any] = {
    "name": "search_issues",
    "title": "Search issues",
    "description": "Search issues and pull requests by text.\n\nUses GitHub's search syntax: `is:open label:bug`.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "q": {"type": "string", "description": "Query text.", "minLength": 1},
            "sort": {"type": "string", "enum": ["comments", "reactions", "created", "updated"]},
            "order": {"type": "string", "enum": ["asc", "desc"], "default": "desc"},
            "per_page": {"type": "integer", "minimum": 1, "maximum": 100, "default": 30, "description": "Page size."},
            "page": {"type": ["integer", "null"]},
        },
        "required": ["q"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "total_count": {"type": "integer"},
            "incomplete_results": {"type": "boolean"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/Issue"}},
        },
        "required": ["total_count", "items"],
        "$defs": {
            "Issue": {
                "type": "object",
                "description": "An issue or pull request.",
                "properties": {
                    "number": {"type": "integer"},
                    "title": {"type": "string"},
                    "state": {"enum": ["open", "closed"]},
                    "labels": {"type": "array", "items": {"$ref": "#/$defs/Label"}},
                    "user": {"$ref": "#/$defs/User"},
                    "created_at": {"type": "string", "format": "date-time"},
                },
                "required": ["number", "title", "state"],
            },
            "Label": {"type": "object", "properties": {"name": {"type": "string"}, "color": {"type": "string"}}},
            "User": {"type": "object", "properties": {"login": {"type": "string"}, "id": {"type": "integer"}}},
        },
    },
    "annotations": {"readOnlyHint": True, "openWorldHint": True},
}

READ_FILE: dict[str, Any] = {
    "name": "read_file",
    "description": "Read the complete contents of a file from the file system. Only works within allowed directories.",
    "inputSchema": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "head": {"type": "number", "description": "If provided, returns only the first N lines of the file"},
            "tail": {"type": "number", "description": "If provided, returns only the last N lines of the file"},
        },
        "required": ["path"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True},
}

JSON_RPC: dict[str, Any] = {
    "name": "rpc.batch",
    "description": "Send a JSON-RPC batch.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "requests": {"type": "array", "items": {"$ref": "#/definitions/Request"}, "minItems": 1},
            "timeout": {"anyOf": [{"type": "number", "exclusiveMinimum": 0}, {"type": "null"}], "default": None},
        },
        "required": ["requests"],
        "definitions": {
            "Request": {
                "type": "object",
                "properties": {
                    "jsonrpc": {"const": "2.0"},
                    "id": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
                    "method": {"type": "string"},
                    "params": {
                        "oneOf": [
                            {"type": "array", "items": {"$ref": "#/definitions/Value"}},
                            {"$ref": "#/definitions/Object"},
                        ]
                    },
                },
                "required": ["jsonrpc", "method"],
            },
            "Value": {
                "anyOf": [
                    {"type": ["string", "number", "boolean", "null"]},
                    {"type": "array", "items": {"$ref": "#/definitions/Value"}},
                    {"$ref": "#/definitions/Object"},
                ]
            },
            "Object": {"type": "object", "additionalProperties": {"$ref": "#/definitions/Value"}},
        },
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "responses": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {},
                        "result": {},
                        "error": {
                            "type": "object",
                            "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
                            "required": ["code", "message"],
                        },
                    },
                },
            }
        },
        "required": ["responses"],
    },
}

ZOD_STYLE: dict[str, Any] = {
    "name": "create-event",
    "description": "Create a calendar event.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "start": {
                "type": "object",
                "properties": {
                    "date": {"type": "string", "format": "date"},
                    "time": {"type": "string", "pattern": "^\\d{2}:\\d{2}$"},
                },
                "required": ["date"],
                "additionalProperties": False,
            },
            "end": {"$ref": "#/properties/start"},
            "attendees": {"type": "array", "items": {"type": "string", "format": "email"}},
            "reminders": {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"enum": ["email", "popup"]}],
                "items": False,
                "minItems": 2,
            },
            "metadata": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
        },
        "required": ["start", "end"],
        "additionalProperties": False,
        "$schema": "http://json-schema.org/draft-07/schema#",
    },
    "annotations": {"destructiveHint": False, "idempotentHint": False},
}

PYDANTIC_STYLE: dict[str, Any] = {
    "name": "delete",
    "description": "Delete a node and, with `recursive`, its children.",
    "inputSchema": {
        "$defs": {
            "Node": {
                "properties": {
                    "id": {"title": "Id", "type": "string"},
                    "children": {"items": {"$ref": "#/$defs/Node"}, "title": "Children", "type": "array"},
                    "kind": {"$ref": "#/$defs/Kind", "default": "file"},
                },
                "required": ["id"],
                "title": "Node",
                "type": "object",
            },
            "Kind": {"enum": ["file", "dir"], "title": "Kind", "type": "string"},
        },
        "properties": {
            "node": {"$ref": "#/$defs/Node"},
            "recursive": {"default": False, "title": "Recursive", "type": "boolean"},
        },
        "required": ["node"],
        "title": "deleteArguments",
        "type": "object",
    },
    "annotations": {"destructiveHint": True},
}

ALL = [SEARCH_ISSUES, READ_FILE, JSON_RPC, ZOD_STYLE, PYDANTIC_STYLE]
