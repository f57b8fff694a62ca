# mcp-session.py - `convctl mcp` driven a line at a time, for the cases of
# tests/cli/t7000-mcp.t that need to act between two answers.
# Usage: python3 mcp-session.py CASE CONVCTL
#   too-large  a request past the size limit is refused before it is all
#              sent (its answer comes while the line is still open), and
#              the next request is answered
#   no-lock    after a call, a command writes with --wait 0 while the
#              server still runs: no lock is held between calls
import json
import os
import select
import subprocess
import sys


# convctl runs under $CONVCTL_WRAPPER when it is set (valgrind)
WRAPPER = os.environ.get("CONVCTL_WRAPPER", "").split()


def start(convctl):
    return subprocess.Popen(WRAPPER + [convctl, "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)


def answer(p):
    ready, _, _ = select.select([p.stdout], [], [], 20)
    if not ready:
        sys.exit("no answer within 20 s")
    return json.loads(p.stdout.readline())


def send(p, data):
    p.stdin.write(data)
    p.stdin.flush()


def call(n, name, args):
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                       "params": {"name": name, "arguments": args}}).encode() + b"\n"


def finish(p):
    p.stdin.close()
    rc = p.wait(20)
    if rc != 0:
        sys.exit("convctl mcp exited %d" % rc)


def too_large(convctl):
    # with max_message_bytes 1000, the limit is 1000 + 65536 bytes
    p = start(convctl)
    send(p, b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"' + b"a" * 70000)
    a = answer(p)
    assert a["id"] is None and a["error"]["code"] == -32600, a
    assert "larger than the limit of 66536 bytes" in a["error"]["message"], a
    send(p, b"a" * 1000000 + b'"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    a = answer(p)
    assert a == {"jsonrpc": "2.0", "id": 2, "result": {}}, a
    finish(p)


def no_lock(convctl):
    p = start(convctl)
    send(p, call(1, "add", {"text": "from the agent"}))
    a = answer(p)
    assert not a["result"]["isError"], a
    subprocess.run(WRAPPER + [convctl, "--wait", "0", "add", "from the shell"],
                   check=True, stdout=subprocess.DEVNULL)
    send(p, call(2, "context", {"last": 2}))
    text = answer(p)["result"]["content"][0]["text"]
    assert "User: from the agent" in text and "User: from the shell" in text, text
    finish(p)


{"too-large": too_large, "no-lock": no_lock}[sys.argv[1]](sys.argv[2])
