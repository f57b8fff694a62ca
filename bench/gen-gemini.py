#!/usr/bin/env python3
"""gen-gemini.py MB SEED OUT - writes a Gemini CLI home of about MB megabytes
of sessions, OUT/tmp/PROJECT/chats/session-*.jsonl, laid out as Gemini CLI
0.61 writes them (tests/fixtures/migrate/real/gemini/).

Each session: its first line, the injected <session_context>, then 3 to 15
turns of a user prompt and a reply (text from gen.py), a reply written once
with its text and again with a read_file call and its result, the result
again as a user functionResponse, the closing reply, a {"$set":
{"lastUpdated"}} after each message; one session in four resumed once (the
whole history written again in a $set, its replies' calls folded into their
parts, a _response message for each). For migrate's speed and memory on a
large source (bench/README.md).
"""
import json
import os
import time

from gen import text
from sources import arguments, uid


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + \
        ".%03dZ" % int((t % 1) * 1000)


CONTEXT = ("<session_context>\nThis is the Gemini CLI. We are setting up the "
           "context for our chat.\nMy operating system is: linux\n"
           "</session_context>")


def session(rng, t):
    sid = uid(rng)
    lines = [{"sessionId": sid, "projectHash": "%064x" % rng.getrandbits(256),
              "startTime": iso(t), "lastUpdated": iso(t), "kind": "main"},
             {"$set": {"messages": [{"id": "d04923d38bb0f6017037e74183378ef4",
                                     "timestamp": iso(t), "type": "user",
                                     "content": [{"text": CONTEXT}]}],
                       "lastUpdated": iso(t)}}]
    history = []

    def put(m):
        lines.append(m)
        lines.append({"$set": {"lastUpdated": m["timestamp"]}})

    for _ in range(rng.randint(3, 15)):
        t += rng.uniform(5, 120)
        u = {"id": uid(rng), "timestamp": iso(t), "type": "user",
             "content": [{"text": text(rng)}]}
        put(u)
        history.append(u)
        t += rng.uniform(1, 20)
        g = {"id": uid(rng), "timestamp": iso(t), "type": "gemini",
             "content": text(rng)[:200], "thoughts": [],
             "tokens": {"input": 12, "output": 7, "cached": 0, "thoughts": 0,
                        "tool": 0, "total": 19},
             "model": "gemini-3.1-pro-preview"}
        put(g)
        call = "read_file__read_file_%d_0" % rng.getrandbits(40)
        fr = {"functionResponse": {"id": call, "name": "read_file",
                                   "response": {"output": text(rng)}}}
        g2 = dict(g, toolCalls=[{"id": call, "name": "read_file",
                                 "args": {"file_path": "/home/u/notes.txt"},
                                 "result": [fr], "status": "success",
                                 "timestamp": iso(t + 0.1),
                                 "displayName": "ReadFile"}])
        lines.append(g2)
        history.append(g2)
        put({"id": uid(rng), "timestamp": iso(t + 0.2), "type": "user",
             "content": [fr]})
        t += rng.uniform(1, 20)
        c = {"id": uid(rng), "timestamp": iso(t), "type": "gemini",
             "content": text(rng), "thoughts": [],
             "model": "gemini-3.1-pro-preview"}
        put(c)
        history.append(c)
    if rng.random() < 0.25:		# resumed: the history written again
        t += rng.uniform(60, 3600)
        again = [lines[1]["$set"]["messages"][0]]
        for m in history:
            if m.get("toolCalls"):
                call = m["toolCalls"][0]
                again.append({"id": m["id"], "timestamp": iso(t),
                              "type": "gemini",
                              "content": [{"text": m["content"]},
                                          {"functionCall": {
                                              "id": call["id"],
                                              "name": call["name"],
                                              "args": call["args"]}}]})
                again.append({"id": m["id"] + "_response",
                              "timestamp": iso(t), "type": "user",
                              "content": call["result"]})
            else:
                again.append(m)
        lines.append({"$set": {"sessionId": sid}})
        lines.append({"$set": {"messages": again, "lastUpdated": iso(t)}})
    return sid, "".join(json.dumps(x, ensure_ascii=False) + "\n"
                        for x in lines), t


def main():
    mb, rng, out = arguments()
    want = int(mb * 1000 * 1000)
    t = 1735689600.0
    n = 0
    while n < want:
        sid, body, t2 = session(rng, t)
        d = os.path.join(out, "tmp", "project-%d" % rng.randint(1, 8),
                         "chats")
        os.makedirs(d, exist_ok=True)
        name = "session-%s-%s.jsonl" % (
            time.strftime("%Y-%m-%dT%H-%M", time.gmtime(t)), sid[:8])
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(body)
        n += len(body.encode())
        t = t2 + rng.uniform(600, 86400)


if __name__ == "__main__":
    main()
