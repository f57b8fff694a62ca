#!/usr/bin/env python3
"""gen-claudeai.py MB SEED OUT - writes the conversations.json of claude.ai's
data export, of about MB megabytes, laid out as the export writes it.

Each conversation has 3 to 15 exchanges (text from gen.py): a human message
(some with an attachment's extracted content), an assistant message of text
blocks, some with a thinking block, some with a web search's tool_use and
tool_result between two text blocks; each message with the export's text,
times, attachments and files. For migrate's speed and memory on a large
export.
"""
import datetime

from gen import text
from sources import arguments, spaced, uid, write_array


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.%fZ")


def block(body, t):
    return {"start_timestamp": iso(t), "stop_timestamp": iso(t), "type": "text",
            "text": body, "citations": []}


def message(rng, sender, t, blocks, body):
    att = []
    if sender == "human" and rng.random() < 0.1:
        att = [{"file_name": "notes.txt", "file_size": 400, "file_type": "txt",
                "extracted_content": text(rng)}]
    return {"uuid": uid(rng), "text": body, "content": blocks, "sender": sender,
            "created_at": iso(t), "updated_at": iso(t), "attachments": att,
            "files": []}


def conversation(rng, t, account):
    start = t
    msgs = []
    for k in range(rng.randint(3, 15)):
        t += rng.uniform(5, 600)
        body = text(rng)
        msgs.append(message(rng, "human", t, [block(body, t)], body))
        t += rng.uniform(2, 60)
        blocks = []
        if rng.random() < 0.3:
            blocks.append({"start_timestamp": iso(t), "stop_timestamp": iso(t),
                           "type": "thinking", "thinking": text(rng)[:400],
                           "summaries": [], "cut_off": False})
        first = text(rng)
        blocks.append(block(first, t))
        shown = first
        if rng.random() < 0.15:
            q = text(rng)[:40]
            blocks.append({"type": "tool_use", "name": "web_search",
                           "input": {"query": q}, "message": "Searching the web"})
            blocks.append({"type": "tool_result", "name": "web_search",
                           "content": [{"type": "knowledge", "title": q,
                                        "url": "https://example.org/",
                                        "text": text(rng)}],
                           "is_error": False})
            after = text(rng)
            blocks.append(block(after, t))
            shown += ("\n\n```\nThis block is not supported on your current "
                      "device yet.\n```\n\n") + after
        msgs.append(message(rng, "assistant", t, blocks, shown))
    return {"uuid": uid(rng), "name": text(rng)[:40], "summary": "",
            "created_at": iso(start), "updated_at": iso(t), "account": account,
            "chat_messages": msgs}, t


def main():
    mb, rng, out = arguments()
    account = {"uuid": uid(rng)}
    write_array(out, int(mb * 1000 * 1000),
                spaced(rng, lambda t: conversation(rng, t, account)))


if __name__ == "__main__":
    main()
