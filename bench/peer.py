#!/usr/bin/env python3
"""peer.py OP STORE [ARG] - what a user would write with python3's json
module instead of convctl, for the benchmark: the same edit or read.
  add TEXT   append a message to the last conversation, write atomically
  end        set the last conversation's endedAt, write atomically
  prompt     print the active conversation as SmartHole's prompt text
  recent     print the ten newest ended conversations
  show ID    print one conversation as JSON
  prune MAX  print the ids of the oldest ended beyond MAX
"""
import json
import os
import sys

NOW = "2035-01-01T00:00:00.000Z"


def save(path, d):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False, separators=(",", ":"))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def main():
    op, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    convs = d["conversations"]
    if op == "add":
        convs[-1]["messages"].append({"id": "m-1", "timestamp": NOW,
                                      "role": "user", "content": sys.argv[3]})
        save(path, d)
    elif op == "end":
        convs[-1]["endedAt"] = NOW
        save(path, d)
    elif op == "prompt":
        c = convs[-1]
        if c.get("endedAt") is None:
            print("## Current Conversation\n" + "\n\n".join(
                "[%s]\n%s: %s" % (m["timestamp"], "User" if m["role"] == "user"
                                  else "Assistant", m["content"])
                for m in c["messages"]))
    elif op == "recent":
        ended = sorted((c for c in convs if c.get("endedAt")),
                       key=lambda c: c["endedAt"], reverse=True)
        for c in ended[:10]:
            print("%s\t%s\t%d\t%s" % (c["id"], c["endedAt"], len(c["messages"]),
                                      c.get("title") or ""))
    elif op == "show":
        for c in convs:
            if c["id"] == sys.argv[3]:
                print(json.dumps(c, ensure_ascii=False))
    elif op == "prune":
        ended = sorted((c for c in convs if c.get("endedAt")),
                       key=lambda c: c["endedAt"])
        for c in ended[:max(0, len(ended) - int(sys.argv[3]))]:
            print(c["id"])


if __name__ == "__main__":
    main()
