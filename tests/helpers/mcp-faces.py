# mcp-faces.py - the two faces of convctl, `convctl mcp` and the commands,
# given the same inputs in a table, and their answers compared, for
# tests/cli/t7010-mcp-faces.t.
# Usage: python3 mcp-faces.py TABLE DIR [--cover read|write|all]
#            [--mcp-store S] [--cli-store S]
# TABLE holds a JSON object a line:
#   {"tool": NAME, "args": {...}, "cli": [ARG...], "check": CHECK,
#    "env": {NAME: VALUE}, "subs": [[CLI-TEXT, MCP-TEXT]...]}
# The tool calls go to one `convctl mcp` a run of lines with the same env
# (tools/list first), the commands to the test tool's one process
# (`test-tool run`; a process each when $CONVCTL_BIN is not the tree's
# convctl), the MCP side on --mcp-store, the CLI side on --cli-store (each
# $CONVCTL_STORE by default). CHECK is what must agree:
#   json KEY  structuredContent is {KEY: what the command's --json prints}
#   text      the text, alone, is what the command prints
#   id        structuredContent is {"id": the line the command prints}
#   end       {"id": the line end prints, or null; "summaryPending": end's
#             exit status was 3}
#   title     {"id", "title"} as given; the command prints nothing
#   error     an isError answer whose text is the command's one line,
#             `convctl: CMD: MESSAGE`, its MESSAGE; the inputs' names differ
#             (an option, an operand, a JSON argument), so each pair of subs
#             replaces CLI-TEXT once by MCP-TEXT in MESSAGE first ("" as
#             CLI-TEXT: MCP-TEXT goes before it)
# But for error, each line the command says on stderr (`convctl: CMD: `
# taken off, subs made) the server says on its own in that run
# (`convctl: mcp: ` before it).
# --cover: every tool tools/list offers that reads (read), that writes
# (write), or all has a line of the table (error lines count for all only);
# for read and write, a line that is no error gives each argument its
# schema names (but cursor: recent and search pages, which the commands
# have not; tests/cli/t7000-mcp.t walks them).
# With both stores given they must be equal at the end, message ids aside.
# Prints a line per disagreement; exit 1 when there is one.
import difflib
import json
import os
import re
import subprocess
import sys

WRAPPER = os.environ.get("CONVCTL_WRAPPER", "").split()
BIN = os.environ.get("CONVCTL_BIN", "convctl")
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(TOP, "tests", "tool", "test-tool")

failures = []


def fail(row, what):
    failures.append("line %d (%s %s): %s" % (row["n"], row["tool"],
                                             json.dumps(row["args"]), what))


def opts(argv):
    o = {"cover": None, "mcp-store": None, "cli-store": None}
    while argv:
        k = argv.pop(0)[2:]
        o[k] = argv.pop(0)
    return o


def env_with(extra, store):
    env = dict(os.environ)
    env.update(extra)
    if store:
        env["CONVCTL_STORE"] = store
    return env


def request(n, method, params):
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": method,
                       "params": params})


def mcp_side(rows, store):
    """each row's answer (its result), by runs of the same env; the tools
    the first run's tools/list offers; each run's stderr"""
    tools = None
    runs = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j]["env"] == rows[i]["env"]:
            j += 1
        lines = [request(0, "tools/list", {})]
        lines += [request(k + 1, "tools/call", {"name": r["tool"],
                                                "arguments": r["args"]})
                  for k, r in enumerate(rows[i:j])]
        p = subprocess.run(WRAPPER + [BIN, "mcp"],
                           input="\n".join(lines).encode() + b"\n",
                           capture_output=True, timeout=120,
                           env=env_with(rows[i]["env"], store))
        if p.returncode != 0:
            sys.exit("convctl mcp exited %d: %s" % (p.returncode,
                                                    p.stderr.decode()))
        answers = {}
        for line in p.stdout.split(b"\n"):
            if not line:
                continue
            a = json.loads(line)
            answers[a["id"]] = a
        if tools is None:
            tools = answers[0]["result"]["tools"]
        err = p.stderr.decode()
        for k, r in enumerate(rows[i:j]):
            r["mcp"] = answers.get(k + 1)
            r["mcp_err"] = err
        i = j
    return tools


def cli_side(rows, store, d):
    """each row's command run: its stdout, stderr and exit status"""
    reqs = [{"argv": r["cli"], "env": dict(r["env"])} for r in rows]
    for q in reqs:
        if store:
            q["env"]["CONVCTL_STORE"] = store
    os.makedirs(d, exist_ok=True)
    if os.access(TOOL, os.X_OK) and os.path.exists(BIN) and \
            os.path.samefile(BIN, os.path.join(TOP, "convctl")):
        with open(os.path.join(d, "requests"), "w") as f:
            for q in reqs:
                f.write(json.dumps(q) + "\n")
        subprocess.run(WRAPPER + [TOOL, "run", os.path.join(d, "requests"), d],
                       check=True, stdout=subprocess.DEVNULL, timeout=300)
        status = open(os.path.join(d, "status")).read().split()
        for k, r in enumerate(rows):
            r["out"] = open(os.path.join(d, "%d.out" % k), "rb").read().decode()
            r["err"] = open(os.path.join(d, "%d.err" % k), "rb").read().decode()
            r["rc"] = int(status[k])
        return
    for q, r in zip(reqs, rows):
        p = subprocess.run(WRAPPER + [BIN] + q["argv"], capture_output=True,
                           stdin=subprocess.DEVNULL, timeout=120,
                           env=env_with(q["env"], None))
        r["out"], r["err"], r["rc"] = (p.stdout.decode(), p.stderr.decode(),
                                       p.returncode)


def elapsed(s):
    return re.sub(r"after [0-9]+ ms", "after N ms", s)


def named(r, msg):
    """the command's msg with the inputs named as the tool names them
    (subs); None when a name is not in it"""
    for cli, mcp in r.get("subs", []):
        if cli == "":
            msg = mcp + msg
        elif cli in msg:
            msg = msg.replace(cli, mcp, 1)
        else:
            return fail(r, "the command's %r lacks %r" % (msg, cli))
    return msg


def said(r):
    """the command's one line, `convctl: CMD: ` taken off"""
    first = r["err"].split("\n")[0]
    prefix = "convctl: %s: " % r["cli"][0]
    return first[len(prefix):] if first.startswith(prefix) else None


def compare(r):
    a = r["mcp"]
    if a is None or "result" not in a:
        return fail(r, "no tool answer: %s" % json.dumps(a))
    res = a["result"]
    text = res["content"][0]["text"]
    got = res.get("structuredContent")
    check = r["check"].split()
    if check[0] == "error":
        msg = said(r)
        if r["rc"] == 0 or msg is None:
            return fail(r, "the command did not fail with one line: exit %d, %r"
                        % (r["rc"], r["err"]))
        msg = named(r, msg)
        if msg is None:
            return
        if not res.get("isError"):
            return fail(r, "the tool did not fail (the command said %r)" % msg)
        if text != msg:
            return fail(r, "the tool said %r, the command %r" % (text, msg))
        return
    if res.get("isError"):
        return fail(r, "the tool failed: %r" % text)
    if r["rc"] != 0 and not (check[0] == "end" and r["rc"] == 3):
        return fail(r, "the command failed, exit %d: %r" % (r["rc"], r["err"]))
    # what the command says on stderr, the server says on its own (the
    # time curl took to fail aside)
    prefix = "convctl: %s: " % r["cli"][0]
    # (lines end at "\n" only: a message may hold U+2028 or U+0085)
    for line in r["err"].rstrip("\n").split("\n") if r["err"] else []:
        if not line.startswith(prefix):
            return fail(r, "the command said %r" % line)
        msg = named(r, line[len(prefix):])
        if msg is None:
            return
        if "convctl: mcp: %s\n" % elapsed(msg) not in elapsed(r["mcp_err"]):
            return fail(r, "the command said %r, the server did not: %r" %
                        (line, r["mcp_err"]))
    if check[0] == "json":
        want = {check[1]: json.loads(r["out"])}
    elif check[0] == "text":
        if got is not None:
            return fail(r, "structured content beside the text: %r" % got)
        if text != r["out"]:
            return fail(r, "the tool's text %r, the command's %r" %
                        (text[:300], r["out"][:300]))
        return
    elif check[0] == "id":
        want = {"id": r["out"].rstrip("\n")}
    elif check[0] == "end":
        want = {"id": r["out"].rstrip("\n") or None,
                "summaryPending": r["rc"] == 3}
    elif check[0] == "title":
        want = {"id": r["args"]["id"], "title": r["args"]["title"]}
        if r["out"] != "":
            return fail(r, "title printed %r" % r["out"])
    else:
        sys.exit("unknown check %r" % r["check"])
    if got != want:
        fail(r, "structured %s, the command's %s" % (json.dumps(got),
                                                     json.dumps(want)))


def store_of(s):
    if s.startswith(("postgres://", "postgresql://", "sqlite:")):
        p = subprocess.run([BIN, "copy", s, "-"], capture_output=True,
                           check=True)
        v = json.loads(p.stdout)
    else:
        v = json.load(open(s))
    for c in v["conversations"]:
        for m in c["messages"]:
            m.pop("id", None)
    return v


def main():
    table, d = sys.argv[1], sys.argv[2]
    o = opts(sys.argv[3:])
    rows = []
    for n, line in enumerate(open(table), 1):
        if line.strip() and not line.startswith("#"):
            r = json.loads(line)
            r.setdefault("env", {})
            r["n"] = n
            rows.append(r)
    tools = mcp_side(rows, o["mcp-store"])
    cli_side(rows, o["cli-store"], d)
    for r in rows:
        compare(r)
    if o["cover"]:
        named = {r["tool"] for r in rows if o["cover"] == "all" or
                 r["check"] != "error"}
        for t in tools:
            ro = t.get("annotations", {}).get("readOnlyHint", False)
            if o["cover"] == "all" or ro == (o["cover"] == "read"):
                if t["name"] not in named:
                    failures.append("tool %s: no line of %s" % (t["name"],
                                                                table))
                given = {k for r in rows if r["tool"] == t["name"] and
                         r["check"] != "error" for k in r["args"]}
                for k in t["inputSchema"]["properties"]:
                    if o["cover"] != "all" and k not in given and \
                            k != "cursor":
                        failures.append("tool %s: no line of %s gives %s" %
                                        (t["name"], table, k))
    if o["mcp-store"] and o["cli-store"]:
        a, b = store_of(o["mcp-store"]), store_of(o["cli-store"])
        if a != b:
            failures.append("the stores differ (-cli +mcp):\n" + "\n".join(
                difflib.unified_diff(
                    json.dumps(b, indent=1, sort_keys=True).splitlines(),
                    json.dumps(a, indent=1, sort_keys=True).splitlines(),
                    lineterm="", n=2)))
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


main()
