#!/usr/bin/env python3
"""fake-model-api.py - a model API on 127.0.0.1 for running Claude Code and
Codex CLI offline, so that the transcripts they write can be imported
(scripts/real-transcripts). It speaks just enough of two streaming APIs to
answer one prompt with one tool call and then a closing reply:

  POST /v1/messages   Anthropic's Messages API (stream: true, SSE)
  POST /v1/responses  OpenAI's Responses API (stream: true, SSE)

A request whose last user turn (the messages since the last reply)
carries a tool's result gets the closing text; one that offers the tool named by --tool-* gets a short text and a
call of that tool; any other (a title, a quota probe) a short text. Every
request is logged, one JSON object a line, to --log.

  fake-model-api.py --port-file FILE --log FILE
      [--read-path PATH] [--shell-command CMD]

Item ids count from 1 in each run of the server (msg_1, fc_1, ...), as a
local provider's do: a second process sees the same ids again.
"""
import argparse
import itertools
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGS = None
IDS = itertools.count(1)


def next_id(prefix):
    return "%s_%d" % (prefix, next(IDS))


def log(entry):
    with open(ARGS.log, "a") as f:
        f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def reply_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_sse(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, name, data):
        self.wfile.write(("event: %s\ndata: %s\n\n" %
                          (name, json.dumps(data))).encode())
        self.wfile.flush()

    def do_GET(self):
        log({"method": "GET", "path": self.path})
        self.reply_json(404, {"error": {"message": "not here"}})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        req = self.body()
        path = self.path.split("?")[0]
        log({"method": "POST", "path": self.path, "body": req})
        if path.endswith("/messages/count_tokens"):
            self.reply_json(200, {"input_tokens": 10})
        elif path.endswith("/messages"):
            self.anthropic(req)
        elif path.endswith("/responses"):
            self.openai(req)
        else:
            self.reply_json(404, {"error": {"message": "not here"}})

    # Anthropic Messages

    def anthropic(self, req):
        # the user's turn since the last reply: Claude Code may follow a
        # tool's result with a message of its own (a reminder)
        turn = []
        for m in reversed(req.get("messages") or []):
            if m.get("role") == "assistant":
                break
            if isinstance(m.get("content"), list):
                turn += m["content"]
        got_result = any(isinstance(b, dict) and
                         b.get("type") == "tool_result" for b in turn)
        tools = [t.get("name") for t in req.get("tools") or []]
        blocks = []
        if got_result:
            blocks.append({"type": "text", "text": ARGS.closing})
        elif "Read" in tools:
            blocks.append({"type": "text", "text": ARGS.opening})
            blocks.append({"type": "tool_use", "id": next_id("toolu"),
                           "name": "Read",
                           "input": {"file_path": ARGS.read_path}})
        else:
            blocks.append({"type": "text", "text": ARGS.short})
        if not req.get("stream"):
            self.reply_json(200, {
                "id": next_id("msg"), "type": "message", "role": "assistant",
                "model": req.get("model", "fake"), "content": blocks,
                "stop_reason": "tool_use" if blocks[-1]["type"] == "tool_use"
                else "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5}})
            return
        self.start_sse()
        self.event("message_start", {"type": "message_start", "message": {
            "id": next_id("msg"), "type": "message", "role": "assistant",
            "model": req.get("model", "fake"), "content": [],
            "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}})
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                self.event("content_block_start", {
                    "type": "content_block_start", "index": i,
                    "content_block": {"type": "text", "text": ""}})
                self.event("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "text_delta", "text": b["text"]}})
            else:
                self.event("content_block_start", {
                    "type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": b["id"],
                                      "name": b["name"], "input": {}}})
                self.event("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta",
                              "partial_json": json.dumps(b["input"])}})
            self.event("content_block_stop", {"type": "content_block_stop",
                                              "index": i})
        self.event("message_delta", {"type": "message_delta", "delta": {
            "stop_reason": "tool_use" if blocks[-1]["type"] == "tool_use"
            else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 5}})
        self.event("message_stop", {"type": "message_stop"})

    # OpenAI Responses

    def openai(self, req):
        items = req.get("input") or []
        got_output = bool(items) and isinstance(items[-1], dict) and \
            items[-1].get("type") in ("function_call_output",
                                      "custom_tool_call_output")
        tools = [t.get("name") for t in req.get("tools") or []
                 if isinstance(t, dict)]
        out = []
        if got_output:
            out.append(self.message(ARGS.closing))
        else:
            call = self.call(tools)
            out.append(self.message(ARGS.opening if call else ARGS.short))
            if call:
                out.append(call)
        rid = next_id("resp")
        self.start_sse()
        self.event("response.created", {"type": "response.created",
                                         "response": {"id": rid}})
        for i, item in enumerate(out):
            self.event("response.output_item.added", {
                "type": "response.output_item.added", "output_index": i,
                "item": item})
            if item["type"] == "message":
                self.event("response.output_text.delta", {
                    "type": "response.output_text.delta", "output_index": i,
                    "item_id": item["id"], "content_index": 0,
                    "delta": item["content"][0]["text"]})
            self.event("response.output_item.done", {
                "type": "response.output_item.done", "output_index": i,
                "item": item})
        self.event("response.completed", {"type": "response.completed",
                                           "response": {
            "id": rid, "object": "response", "status": "completed",
            "output": out, "usage": {
                "input_tokens": 10, "input_tokens_details":
                {"cached_tokens": 0}, "output_tokens": 5,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 15}}})

    @staticmethod
    def message(text):
        return {"type": "message", "id": next_id("msg"), "role": "assistant",
                "status": "completed", "content": [
                    {"type": "output_text", "text": text,
                     "annotations": []}]}

    @staticmethod
    def call(tools):
        args = None
        for name in ("shell_command", "exec_command", "shell"):
            if name not in tools:
                continue
            if name == "shell":
                args = {"command": ["bash", "-lc", ARGS.shell_command]}
            elif name == "exec_command":
                args = {"cmd": ARGS.shell_command}
            else:
                args = {"command": ARGS.shell_command}
            break
        if args is None:
            return None
        return {"type": "function_call", "id": next_id("fc"),
                "status": "completed", "name": name,
                "arguments": json.dumps(args), "call_id": next_id("call")}


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--read-path", default="notes.txt")
    p.add_argument("--shell-command", default="cat notes.txt")
    p.add_argument("--opening", default="Let me look at the notes first.")
    p.add_argument("--closing",
                   default="The notes say to glaze the bowls on Friday.")
    p.add_argument("--short", default="Kiln notes")
    ARGS = p.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(ARGS.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    import os
    os.rename(ARGS.port_file + ".tmp", ARGS.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
