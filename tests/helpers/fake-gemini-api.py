#!/usr/bin/env python3
"""fake-gemini-api.py - the Gemini API (generativelanguage, v1beta) on
127.0.0.1, for running Gemini CLI offline so that the sessions it writes can
be imported (scripts/gemini-transcripts). It answers

  POST /v1beta/models/MODEL:generateContent
  POST /v1beta/models/MODEL:streamGenerateContent?alt=sse
  POST /v1beta/models/MODEL:countTokens

A request whose last turn carries a functionResponse gets the closing
text; one that offers read_file, and whose last user text asks for the
notes, gets a short text and a call of read_file on --read-path; a request
for JSON (the CLI's model router, its next-speaker check, a title) gets a
JSON object; any other a short text. Every request is logged, one JSON
object a line, to --log (the server, the log and its end: fakeapi.py).

  fake-gemini-api.py --port-file FILE --log FILE [--read-path PATH]
"""
import json
import sys

import fakeapi

ARGS = None


def usage():
    return {"promptTokenCount": 12, "candidatesTokenCount": 7,
            "totalTokenCount": 19}


def last_turn(req):
    contents = req.get("contents") or []
    return contents[-1] if contents else {}


def last_text(turn):
    return " ".join(p.get("text", "") for p in turn.get("parts") or []
                    if isinstance(p, dict))


def offers(req, name):
    for t in req.get("tools") or []:
        for d in t.get("functionDeclarations") or []:
            if d.get("name") == name:
                return True
    return False


def wants_json(req):
    g = req.get("generationConfig") or req.get("config") or {}
    return (g.get("responseMimeType") == "application/json" or
            "responseJsonSchema" in g or "responseSchema" in g)


def answer(req):
    """the parts of the model's reply to req"""
    turn = last_turn(req)
    parts = turn.get("parts") or []
    if any(isinstance(p, dict) and "functionResponse" in p for p in parts):
        return [{"text": "Your notes say to glaze the bowls on Friday "
                 "and fire to cone 6."}]
    if wants_json(req):
        return [{"text": json.dumps({
            "reasoning": "a short question", "model_choice": "flash",
            "next_speaker": "user", "title": "Kiln notes"})}]
    text = last_text(turn).lower()
    if offers(req, "read_file") and "notes" in text:
        return [{"text": "Let me read them."},
                {"functionCall": {"name": "read_file",
                                  "args": {"file_path": ARGS.read_path}}}]
    return [{"text": "Hello! The kiln is your studio's; ask me about it."}]


def response(parts):
    return {"candidates": [{"content": {"role": "model", "parts": parts},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": usage(), "modelVersion": "gemini-fake"}


class Handler(fakeapi.Handler):
    not_found = {"error": {"code": 404, "message": "not here",
                           "status": "NOT_FOUND"}}

    def do_POST(self):
        req, path = self.post()
        if path.endswith(":countTokens"):
            self.reply_json(200, {"totalTokens": 19})
        elif path.endswith(":generateContent"):
            self.reply_json(200, response(answer(req)))
        elif path.endswith(":streamGenerateContent"):
            self.stream(answer(req))
        else:
            self.reply_not_found()

    def stream(self, parts):
        """one chunk a part, the last with the finish reason and usage"""
        self.start_sse()
        for i, p in enumerate(parts):
            chunk = {"candidates": [{"content": {"role": "model",
                                                 "parts": [p]},
                                     "index": 0}],
                     "modelVersion": "gemini-fake"}
            if i == len(parts) - 1:
                chunk = response([p])
            self.event(chunk, eol="\r\n")


def main():
    global ARGS
    ARGS = fakeapi.options(__doc__).parse_args()
    return fakeapi.serve(Handler, ARGS)


if __name__ == "__main__":
    sys.exit(main())
