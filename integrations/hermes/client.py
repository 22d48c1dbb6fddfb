"""HTTP client for Spillway's generic hook API (stdlib only).

Every call has a short timeout and fails open: on any error it returns None and logs, so the
agent keeps working exactly as it would without Spillway.
"""
from __future__ import annotations

import json
import logging
import os
import urllib.error
import urllib.request
from typing import Any, Dict, Optional

log = logging.getLogger("spillway")

DEFAULT_URL = "http://127.0.0.1:7341"


def default_token() -> Optional[str]:
    """The bearer token: $SPILLWAY_TOKEN, else the 0600 file in $SPILLWAY_HOME (default ~/.spillway)."""
    token = os.environ.get("SPILLWAY_TOKEN")
    if token:
        return token.strip()
    home = os.environ.get("SPILLWAY_HOME") or os.path.join(os.path.expanduser("~"), ".spillway")
    try:
        with open(os.path.join(home, "token"), encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


class SpillwayClient:
    """Talks to `spillway serve`; each method returns the API's value, or None when anything failed."""

    def __init__(self, base_url: Optional[str] = None, token: Optional[str] = None, timeout: float = 5.0):
        self.base_url = (base_url or os.environ.get("SPILLWAY_URL") or DEFAULT_URL).rstrip("/")
        self._token = token
        self.timeout = timeout

    @property
    def token(self) -> Optional[str]:
        # Read lazily: `spillway serve` creates the file on its first run, possibly after Hermes started.
        if self._token is None:
            self._token = default_token()
        return self._token

    def _post(self, path: str, body: Dict[str, Any], timeout: Optional[float] = None) -> Optional[Any]:
        token = self.token
        if not token:
            log.debug("spillway: no token (is `spillway serve` set up?); leaving %s unchanged", path)
            return None
        data = json.dumps(body).encode("utf-8")
        req = urllib.request.Request(
            self.base_url + path,
            data=data,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + token},
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                answer = json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as err:
            log.warning("spillway: %s answered HTTP %s; leaving the call unchanged", path, err.code)
            if err.code == 401:
                self._token = None  # the token may have been recreated: read it again next time
            return None
        except Exception as err:  # noqa: BLE001 - any failure means "no change"
            log.debug("spillway: %s failed (%s); leaving the call unchanged", path, err)
            return None
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            log.warning("spillway: %s refused: %s", path, answer.get("error") if isinstance(answer, dict) else answer)
            return None
        return answer.get("value")

    def transform(self, session_id: str, tool: str, args: Any, text: str, is_error: bool = False) -> Optional[Dict[str, Any]]:
        return self._post("/hooks/transform", {"session_id": session_id, "tool": tool, "args": args, "text": text, "is_error": is_error, "client": "hermes"})

    def expand(self, session_id: str, tool: str, args: Any) -> Optional[Dict[str, Any]]:
        return self._post("/hooks/expand", {"session_id": session_id, "tool": tool, "args": args, "client": "hermes"}, timeout=min(self.timeout, 3.0))

    def fetch(self, session_id: str, blob_id: str, mode: str, **args: Any) -> Optional[Dict[str, Any]]:
        return self._post("/hooks/fetch", {"session_id": session_id, "id": blob_id, "mode": mode, **args}, timeout=max(self.timeout, 10.0))

    def recall(self, session_id: str, result_id: str) -> Optional[Dict[str, Any]]:
        return self._post("/hooks/recall", {"session_id": session_id, "result_id": result_id}, timeout=max(self.timeout, 10.0))

    def compaction(self, session_id: str) -> Optional[Dict[str, Any]]:
        return self._post("/hooks/compaction", {"session_id": session_id})
