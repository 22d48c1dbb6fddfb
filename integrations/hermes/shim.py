"""The Hermes side of Spillway: hooks, middleware and tools that call the local endpoint.

Hermes plugin API used (hermes_cli/plugins.py, hermes_cli/middleware.py, model_tools.py):
- ctx.register_tool(name, toolset, schema, handler, description=...): handler(params, **kwargs) -> str
- ctx.register_hook("transform_tool_result", cb): cb(tool_name, args, result, session_id, task_id,
  tool_call_id, status, ...) -> replacement str or None
- ctx.register_middleware("tool_request", cb): cb(tool_name, args, original_args, session_id, ...)
  -> {"args": {...}} to replace the arguments, or None
- ctx.register_hook("on_session_reset", cb): the context was cleared, so results count as unseen.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, Dict, Optional

from .client import SpillwayClient

OWN_TOOLS = ("rescuer_fetch", "recall_result")
# Hermes names MCP tools mcp_<server>_<tool>: results of Spillway's own MCP server were handled there.
OWN_MCP_PREFIX = "mcp_spillway_"
FETCH_MODES = ["stat", "outline", "search", "grep", "chain", "range", "query", "full"]

FETCH_SCHEMA = {
    "name": "rescuer_fetch",
    "description": (
        "Read a large tool result that Spillway stored instead of putting it in your context. When a result is too "
        "large you get a preview (NOT the full output) with a 12-character id; this reads the full stored text. "
        "Modes: stat (size, kind, expiry); outline (structure, columns, headings, error clusters); search (query, "
        "top_k: best chunks for a question); grep (pattern, ignore_case: matching lines, RE2); chain (pattern, "
        "context: matches with surrounding lines); range (start, count: 0-based lines, or start_char, count_chars); "
        "query (expression: JMESPath over JSON); full (whole text when small). Start with outline or search. "
        "Write spill:<id> in another tool's argument to pass the whole result without reading it."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The 12-character id from the preview."},
            "mode": {"type": "string", "enum": FETCH_MODES},
            "query": {"type": "string"},
            "top_k": {"type": "integer", "minimum": 1, "maximum": 50},
            "pattern": {"type": "string"},
            "ignore_case": {"type": "boolean"},
            "context": {"type": "integer", "minimum": 0, "maximum": 50},
            "start": {"type": "integer", "minimum": 0},
            "count": {"type": "integer", "minimum": 1},
            "start_char": {"type": "integer", "minimum": 0},
            "count_chars": {"type": "integer", "minimum": 1},
            "expression": {"type": "string"},
        },
        "required": ["id", "mode"],
    },
}

RECALL_SCHEMA = {
    "name": "recall_result",
    "description": (
        "Get back the exact text of an earlier tool result that Spillway replaced by a one-line stub because you had "
        "already received it. Use it when that result is no longer in your context. result_id is the id in the stub."
    ),
    "parameters": {
        "type": "object",
        "properties": {"result_id": {"type": "string", "description": "The 12-character id named in the stub."}},
        "required": ["result_id"],
    },
}

UNREACHABLE = "Spillway is not reachable (is `spillway serve` running?), so stored results cannot be read right now."


def session_of(kwargs: Dict[str, Any]) -> str:
    """One Spillway session per Hermes session; the task id stands in when Hermes gives none."""
    return str(kwargs.get("session_id") or kwargs.get("task_id") or "hermes")


class SpillwayShim:
    def __init__(self, client: SpillwayClient, max_notes: int = 256):
        self.client = client
        # Notes about denied spill: tokens, keyed by tool call, appended to that call's result.
        self._notes: "OrderedDict[str, str]" = OrderedDict()
        self._max_notes = max_notes

    # -- hooks -------------------------------------------------------------------------------

    def transform_tool_result(self, tool_name: str = "", args: Any = None, result: Any = None, status: Optional[str] = None, **kwargs: Any) -> Optional[str]:
        note = self._notes.pop(str(kwargs.get("tool_call_id") or ""), None)
        if not isinstance(result, str) or tool_name in OWN_TOOLS or tool_name.startswith(OWN_MCP_PREFIX):
            return None
        value = self.client.transform(session_of(kwargs), tool_name, args if args is not None else {}, result, status == "error")
        text = value.get("text") if isinstance(value, dict) and value.get("changed") else None
        if note:
            return (text if text is not None else result) + "\n" + note
        return text

    def tool_request(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> Optional[Dict[str, Any]]:
        if not isinstance(args, dict) or tool_name in OWN_TOOLS:
            return None
        try:
            if "spill:" not in json.dumps(args):
                return None  # most calls: no round trip
        except (TypeError, ValueError):
            return None
        value = self.client.expand(session_of(kwargs), tool_name, args)
        if not isinstance(value, dict):
            return None
        if value.get("note"):
            self._remember(str(kwargs.get("tool_call_id") or ""), value["note"])
        if value.get("changed") and isinstance(value.get("args"), dict):
            return {"args": value["args"], "source": "spillway", "reason": "expanded spill: references"}
        return None

    def on_session_reset(self, **kwargs: Any) -> None:
        self.client.compaction(session_of(kwargs))

    def _remember(self, call_id: str, note: str) -> None:
        if not call_id:
            return
        self._notes[call_id] = note
        while len(self._notes) > self._max_notes:
            self._notes.popitem(last=False)

    # -- tools ---------------------------------------------------------------------------------

    def rescuer_fetch(self, params: Dict[str, Any], **kwargs: Any) -> str:
        params = dict(params or {})
        blob_id = str(params.pop("id", ""))
        mode = str(params.pop("mode", ""))
        extra = {k: v for k, v in params.items() if v is not None}
        return self._answer(self.client.fetch(session_of(kwargs), blob_id, mode, **extra))

    def recall_result(self, params: Dict[str, Any], **kwargs: Any) -> str:
        return self._answer(self.client.recall(session_of(kwargs), str((params or {}).get("result_id", ""))))

    @staticmethod
    def _answer(value: Optional[Dict[str, Any]]) -> str:
        if not isinstance(value, dict):
            return json.dumps({"error": UNREACHABLE})
        key = "error" if value.get("is_error") else "result"
        return json.dumps({key: value.get("text", "")}, ensure_ascii=False)

    # -- registration --------------------------------------------------------------------------

    def register(self, ctx: Any) -> None:
        ctx.register_tool(name="rescuer_fetch", toolset="spillway", schema=FETCH_SCHEMA, handler=self.rescuer_fetch,
                          description="Read a stored large tool result by id.")
        ctx.register_tool(name="recall_result", toolset="spillway", schema=RECALL_SCHEMA, handler=self.recall_result,
                          description="Recall an earlier tool result replaced by a stub.")
        ctx.register_hook("transform_tool_result", self.transform_tool_result)
        ctx.register_hook("on_session_reset", self.on_session_reset)
        if hasattr(ctx, "register_middleware"):
            ctx.register_middleware("tool_request", self.tool_request)
