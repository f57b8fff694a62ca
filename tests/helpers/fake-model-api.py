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
request is logged, one JSON object a line, to --log (the server, the log
and its end: fakeapi.py).

  fake-model-api.py --port-file FILE --log FILE
      [--read-path PATH] [--shell-command CMD] [--mcp-calls FILE]

With --mcp-calls (a JSON object a line: {"name": TOOL, "arguments": {...}};
TOOL may be a list of names, of which the first offered is called)
the model calls those tools instead, an MCP server's as the client names
them (Claude Code mcp__SERVER__TOOL, Codex TOOL in the namespace
mcp__SERVER; or TOOL), one a request in that
order, skipping those not offered: the Nth call when the conversation holds
N-1 tools' results, then the closing text (tests/cli/t7020-mcp-agents.t).

  fake-model-api.py --given LOG SERVER

reads such a log and writes, in the working directory, what the model was
given in the request that carried the most tools' results: tools.txt, the
names of SERVER's tools offered (a line each, sorted), and result-N.txt,
the Nth result's text as the model read it (Codex's "Wall time: ...
Output:" before it left out), and texts.json, the texts of its messages
in order (a JSON array).

Item ids count from 1 in each run of the server (msg_1, fc_1, ...), as a
local provider's do: a second process sees the same ids again.
"""
import itertools
import json
import re
import sys

import fakeapi

ARGS = None
IDS = itertools.count(1)
MCP_CALLS = []


def next_id(prefix):
    return "%s_%d" % (prefix, next(IDS))


def tool_names(tools, namespace=None):
    """the tools a request offers, as (name, namespace) (Codex offers an MCP
    server's as functions in a namespace, mcp__SERVER)"""
    names = []
    for t in tools or []:
        if not isinstance(t, dict) or not t.get("name"):
            continue
        if t.get("type") == "namespace":
            names += tool_names(t.get("tools"), t["name"])
        else:
            names.append((t["name"], namespace))
    return names


def mcp_call(tools, done):
    """the MCP call to make after DONE results, (name, namespace,
    arguments), or None"""
    offered = []
    for c in MCP_CALLS:
        want = c["name"] if isinstance(c["name"], list) else [c["name"]]
        found = [(n, ns) for w in want for n, ns in tools
                 if (n if ns is None else ns + "__" + n) == w or
                 (n if ns is None else ns + "__" + n).endswith("__" + w)]
        if found:
            offered.append(found[0] + (c.get("arguments") or {},))
    return offered[done] if done < len(offered) else None


class Handler(fakeapi.Handler):
    def event(self, name, data):
        """an event of these APIs: named"""
        super().event(data, name=name)

    def do_POST(self):
        req, path = self.post()
        if path.endswith("/messages/count_tokens"):
            self.reply_json(200, {"input_tokens": 10})
        elif path.endswith("/messages"):
            self.anthropic(req)
        elif path.endswith("/responses"):
            self.openai(req)
        else:
            self.reply_not_found()

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
        tools = tool_names(req.get("tools"))
        blocks = []
        if MCP_CALLS:
            done = sum(1 for m in req.get("messages") or []
                       if isinstance(m.get("content"), list)
                       for b in m["content"] if isinstance(b, dict) and
                       b.get("type") == "tool_result")
            call = mcp_call(tools, done)
            if call:
                blocks.append({"type": "text", "text": ARGS.opening})
                blocks.append({"type": "tool_use", "id": next_id("toolu"),
                               "name": call[0], "input": call[2]})
            else:
                blocks.append({"type": "text", "text": ARGS.closing
                               if done else ARGS.short})
        elif got_result:
            blocks.append({"type": "text", "text": ARGS.closing})
        elif "Read" in [n for n, _ in tools]:
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
        tools = tool_names(req.get("tools"))
        out = []
        if MCP_CALLS:
            done = sum(1 for i in items if isinstance(i, dict) and
                       i.get("type") == "function_call_output")
            call = mcp_call(tools, done)
            if call:
                out.append(self.message(ARGS.opening))
                item = {"type": "function_call", "id": next_id("fc"),
                        "status": "completed", "name": call[0],
                        "arguments": json.dumps(call[2]),
                        "call_id": next_id("call")}
                if call[1] is not None:
                    item["namespace"] = call[1]
                out.append(item)
            else:
                out.append(self.message(ARGS.closing if done
                                        else ARGS.short))
        elif got_output:
            out.append(self.message(ARGS.closing))
        else:
            call = self.call([n for n, _ in tools])
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


WALL_TIME = re.compile(r"^Wall time: [0-9.]+ seconds\nOutput:\n?")


def result_text(content):
    """a tool result's text: a string, or the text of its items"""
    if isinstance(content, str):
        return WALL_TIME.sub("", content)
    texts = [c.get("text", "") for c in content or [] if isinstance(c, dict)]
    if texts and WALL_TIME.fullmatch(texts[0] + "\n"):
        texts = texts[1:]
    return "".join(texts)


def given(log, server):
    best = None
    with open(log) as f:
        for line in f:
            body = json.loads(line).get("body") or {}
            results = []
            for m in body.get("messages") or []:
                for b in m.get("content") if isinstance(m.get("content"),
                                                        list) else []:
                    if isinstance(b, dict) and b.get("type") == "tool_result":
                        results.append(result_text(b.get("content")))
            for i in body.get("input") or []:
                if isinstance(i, dict) and \
                        i.get("type") == "function_call_output":
                    results.append(result_text(i.get("output")))
            if best is None or len(results) > len(best[1]):
                best = (body, results, texts(body))
    if best is None:
        sys.exit("no request in " + log)
    names = set()
    for n, ns in tool_names(best[0].get("tools")):
        full = n if ns is None else ns + "__" + n
        if full.startswith("mcp__" + server + "__"):
            names.add(full[len("mcp__" + server + "__"):])
    with open("tools.txt", "w") as f:
        f.write("".join(n + "\n" for n in sorted(names)))
    for k, text in enumerate(best[1], 1):
        with open("result-%d.txt" % k, "w") as f:
            f.write(text)
    with open("texts.json", "w") as f:
        json.dump(best[2], f)
    return 0


def texts(body):
    """the texts of a request's messages, in order"""
    out = []
    for m in body.get("messages") or body.get("input") or []:
        if not isinstance(m, dict):
            continue
        c = m.get("content")
        if isinstance(c, str):
            out.append(c)
        for b in c if isinstance(c, list) else []:
            if isinstance(b, dict) and isinstance(b.get("text"), str) and \
                    b.get("type") in ("text", "input_text", "output_text"):
                out.append(b["text"])
    return out


def main():
    global ARGS
    if len(sys.argv) == 4 and sys.argv[1] == "--given":
        return given(sys.argv[2], sys.argv[3])
    p = fakeapi.options(__doc__)
    p.add_argument("--shell-command", default="cat notes.txt")
    p.add_argument("--opening", default="Let me look at the notes first.")
    p.add_argument("--closing",
                   default="The notes say to glaze the bowls on Friday.")
    p.add_argument("--short", default="Kiln notes")
    p.add_argument("--mcp-calls")
    ARGS = p.parse_args()
    if ARGS.mcp_calls:
        with open(ARGS.mcp_calls) as f:
            MCP_CALLS[:] = [json.loads(line) for line in f if line.strip()]
    return fakeapi.serve(Handler, ARGS)


if __name__ == "__main__":
    sys.exit(main())
