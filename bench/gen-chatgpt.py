#!/usr/bin/env python3
"""gen-chatgpt.py MB SEED OUT - writes a ChatGPT data export's
conversations.json of about MB megabytes, laid out as ChatGPT writes it.

Each conversation is a mapping as the export has it: a root node without a
message, a hidden system message, then 6 to 30 user and assistant messages
(text from gen.py: prose with accents, emoji, CJK, quotes, newlines, tabs and
backslashes), each node with its metadata, some answers regenerated (a second
child, the later one current), some assistant messages addressed to a tool
and answered by it. For migrate's memory: what a 100 MB export costs.
"""
from gen import text
from sources import arguments, spaced, uid, write_array


def message(rng, nid, role, t, body, recipient="all", hidden=False):
    meta = {"request_id": "%016x" % rng.getrandbits(64), "timestamp_": "absolute"}
    if role == "assistant":
        meta.update({"model_slug": "gpt-4o", "default_model_slug": "gpt-4o",
                     "finish_details": {"type": "stop", "stop_tokens": [200002]},
                     "citations": [], "content_references": []})
    if hidden:
        meta["is_visually_hidden_from_conversation"] = True
    return {"id": nid, "author": {"role": role, "name": None, "metadata": {}},
            "create_time": t, "update_time": None,
            "content": {"content_type": "text", "parts": [body]},
            "status": "finished_successfully", "end_turn": role == "assistant" or None,
            "weight": 1.0, "metadata": meta, "recipient": recipient, "channel": None}


def conversation(rng, t):
    mapping = {}
    root = "client-created-root"
    mapping[root] = {"id": root, "message": None, "parent": None, "children": []}
    prev = root

    def add(msg):
        nonlocal prev
        nid = msg["id"]
        mapping[nid] = {"id": nid, "message": msg, "parent": prev, "children": []}
        mapping[prev]["children"].append(nid)
        prev = nid
        return nid

    start = t
    add(message(rng, uid(rng), "system", None, "", hidden=True))
    for k in range(rng.randint(3, 15)):
        t += rng.uniform(5, 600)
        add(message(rng, uid(rng), "user", t, text(rng)))
        if rng.random() < 0.15:
            t += rng.uniform(2, 60)
            add(message(rng, uid(rng), "assistant", t, "search(\"%s\")" % text(rng)[:40],
                        recipient="browser"))
            t += rng.uniform(1, 10)
            add(message(rng, uid(rng), "tool", t, text(rng)))
        if rng.random() < 0.1:	# regenerated: an old answer on a branch
            t += rng.uniform(2, 60)
            old = uid(rng)
            mapping[old] = {"id": old, "parent": prev, "children": [],
                            "message": message(rng, old, "assistant", t, text(rng))}
            mapping[prev]["children"].append(old)
        t += rng.uniform(2, 60)
        add(message(rng, uid(rng), "assistant", t, text(rng)))
    cid = uid(rng)
    return {"title": text(rng)[:40], "create_time": start, "update_time": t,
            "mapping": mapping, "moderation_results": [], "current_node": prev,
            "plugin_ids": None, "conversation_id": cid, "conversation_template_id": None,
            "gizmo_id": None, "is_archived": False, "safe_urls": [], "default_model_slug": "gpt-4o",
            "id": cid}, t


def main():
    mb, rng, out = arguments()
    write_array(out, int(mb * 1000 * 1000),
                spaced(rng, lambda t: conversation(rng, t)))


if __name__ == "__main__":
    main()
