"""Drives the Hermes shim against a live `spillway serve` (stdlib unittest; run from the repo root:
python3 -m unittest discover -s integrations/hermes -p 'test_*.py')."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load_plugin():
    """Loads this folder the way Hermes loads a directory plugin: a package with register(ctx)."""
    spec = importlib.util.spec_from_file_location("spillway_hermes_plugin", os.path.join(HERE, "__init__.py"), submodule_search_locations=[HERE])
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


plugin = load_plugin()
shim_mod = sys.modules["spillway_hermes_plugin.shim"]
client_mod = sys.modules["spillway_hermes_plugin.client"]


def build_log(lines: int, seed: str) -> str:
    return "\n".join(f"[{seed}] {'ERROR' if i % 40 == 5 else 'INFO'} job {i} finished in {i % 61} ms" for i in range(lines))


class FakeCtx:
    def __init__(self):
        self.tools, self.hooks, self.middleware = {}, {}, {}

    def register_tool(self, name, toolset, schema, handler, **_):
        assert schema["name"] == name and toolset == "spillway"
        self.tools[name] = handler

    def register_hook(self, name, cb):
        self.hooks[name] = cb

    def register_middleware(self, kind, cb):
        self.middleware[kind] = cb


class ShimAgainstLiveServer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home = tempfile.mkdtemp(prefix="spillway-hermes-")
        cls.proc = subprocess.Popen(
            [os.environ.get("SPILLWAY_NODE", "node"), os.path.join(ROOT, "bin", "spillway.js"), "serve", "--home", cls.home, "--port", "0"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        deadline = time.time() + 60
        url = None
        while time.time() < deadline and url is None:
            line = cls.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"serving (http://127\.0\.0\.1:\d+)/mcp", line)
            url = m.group(1) if m else None
        if url is None:
            cls.tearDownClass()
            raise RuntimeError("spillway serve did not start")
        with open(os.path.join(cls.home, "token"), encoding="utf-8") as f:
            token = f.read().strip()
        cls.client = client_mod.SpillwayClient(base_url=url, token=token, timeout=5.0)
        cls.ctx = FakeCtx()
        shim_mod.SpillwayShim(cls.client).register(cls.ctx)

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        try:
            cls.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            cls.proc.kill()
        cls.proc.stdout.close()
        shutil.rmtree(cls.home, ignore_errors=True)

    def transform(self, tool, result, session="hermes-s1", **kw):
        return self.ctx.hooks["transform_tool_result"](tool_name=tool, args={"cmd": "x"}, result=result, session_id=session, task_id="t1", **kw)

    def test_register_declares_tools_hooks_and_middleware(self):
        ctx = FakeCtx()
        plugin.register(ctx)
        self.assertEqual(set(ctx.tools), {"rescuer_fetch", "recall_result"})
        self.assertIn("transform_tool_result", ctx.hooks)
        self.assertIn("on_session_reset", ctx.hooks)
        self.assertIn("tool_request", ctx.middleware)

    def test_large_result_becomes_a_preview_that_fetch_reads(self):
        text = json.dumps({"output": build_log(3000, "term"), "exit_code": 0})
        handle = self.transform("terminal", text)
        self.assertIsNotNone(handle)
        self.assertIn("PREVIEW", handle)
        self.assertLess(len(handle), len(text) // 3)
        blob_id = re.search(r"\b([0-9a-f]{12})\b", handle).group(1)
        answer = json.loads(self.ctx.tools["rescuer_fetch"]({"id": blob_id, "mode": "grep", "pattern": "job 2005 "}, session_id="hermes-s1"))
        self.assertIn("job 2005 finished", answer["result"])
        other = json.loads(self.ctx.tools["rescuer_fetch"]({"id": blob_id, "mode": "stat"}, session_id="hermes-other"))
        self.assertIn(f"There is no stored result {blob_id} in this session", other["error"])

    def test_small_results_and_own_tools_are_left_alone(self):
        self.assertIsNone(self.transform("terminal", '{"output": "ok"}'))
        self.assertIsNone(self.transform("rescuer_fetch", build_log(3000, "own")))
        self.assertIsNone(self.transform("mcp_spillway_read_file", build_log(3000, "own")))
        self.assertIsNone(self.transform("terminal", {"not": "a string"}))

    def test_repeat_becomes_a_stub_and_recall_returns_exact_bytes(self):
        text = build_log(120, "dup")
        self.assertIsNone(self.transform("read_file", text, session="hermes-s2"))
        stub = self.transform("read_file", text, session="hermes-s2")
        self.assertRegex(stub, r'recall_result\(result_id="[0-9a-f]{12}"\)')
        rid = re.search(r'result_id="([0-9a-f]{12})"', stub).group(1)
        self.assertEqual(json.loads(self.ctx.tools["recall_result"]({"result_id": rid}, session_id="hermes-s2"))["result"], text)
        self.ctx.hooks["on_session_reset"](session_id="hermes-s2")
        self.assertIsNone(self.transform("read_file", text, session="hermes-s2"))  # delivered in full once more

    def test_middleware_expands_spill_tokens_but_never_for_a_shell(self):
        text = build_log(3000, "ref")
        blob_id = re.search(r"\b([0-9a-f]{12})\b", self.transform("web_extract", text, session="hermes-s3")).group(1)
        mw = self.ctx.middleware["tool_request"]
        out = mw(tool_name="summarize_text", args={"text": f"spill:{blob_id}", "style": "short"}, original_args={}, session_id="hermes-s3", tool_call_id="c1")
        self.assertEqual(hashlib.sha256(out["args"]["text"].encode()).hexdigest(), hashlib.sha256(text.encode()).hexdigest())
        self.assertEqual(out["args"]["style"], "short")
        denied = mw(tool_name="terminal", args={"command": f"cat spill:{blob_id}"}, original_args={}, session_id="hermes-s3", tool_call_id="c2")
        self.assertIsNone(denied)
        result = self.transform("terminal", '{"output": "cat: spill: No such file"}', session="hermes-s3", tool_call_id="c2")
        self.assertIn("not expanded for terminal", result)
        self.assertIsNone(mw(tool_name="terminal", args={"command": "ls"}, original_args={}, session_id="hermes-s3"))

    def test_fails_open_fast_when_spillway_is_down(self):
        down = shim_mod.SpillwayShim(client_mod.SpillwayClient(base_url="http://127.0.0.1:9", token="0" * 64, timeout=1.0))
        started = time.time()
        self.assertIsNone(down.transform_tool_result(tool_name="terminal", args={}, result=build_log(3000, "x"), session_id="s"))
        self.assertIsNone(down.tool_request(tool_name="summarize", args={"t": "spill:0123456789ab"}, session_id="s"))
        self.assertIn("not reachable", json.loads(down.rescuer_fetch({"id": "0123456789ab", "mode": "stat"}))["error"])
        self.assertLess(time.time() - started, 5)

    def test_wrong_token_changes_nothing(self):
        bad = shim_mod.SpillwayShim(client_mod.SpillwayClient(base_url=self.client.base_url, token="f" * 64, timeout=2.0))
        self.assertIsNone(bad.transform_tool_result(tool_name="terminal", args={}, result=build_log(3000, "y"), session_id="s"))


if __name__ == "__main__":
    unittest.main()
