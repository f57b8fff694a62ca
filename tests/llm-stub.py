#!/usr/bin/env python3
"""A stub LLM server for convctl's tests: real HTTP on 127.0.0.1, no model.

usage: llm-stub.py (--port-fd N | --port-file FILE) --script FILE --log FILE
                   [--tls-cert PEM --tls-key PEM]

It listens on a free port and, once it is ready, writes the port and a
newline to --port-file (made whole: written aside, then renamed), or to the
descriptor --port-fd (a pipe or FIFO its starter reads, so that the starter
blocks until then and sees the end of the pipe if the stub dies first: no
polling). The descriptor stays open while the stub lives, and a line "."
goes to it every 20 ms (dropped when no one reads it): a clock a shell
waits on with `read`, not with a sleep a try (tests/llm-stub.sh,
wait_for_request). It speaks OpenAI's chat completions (POST .../chat/completions) and
Anthropic's Messages (POST .../messages); a request whose target is an
absolute URL (as a client sends it to a proxy) is answered the same way.

--script holds a JSON array of canned responses, used in order; the last one
repeats. The file is read at every request, and writing it again starts
again from its first response. A response is an object:
  status    HTTP status (200)
  headers   extra response headers, e.g. {"Retry-After": "1"}
  reply     the model's text, wrapped in the body of the API asked
  stop      with reply: why the model stopped, the API's own word (OpenAI's
            finish_reason "stop", "length", "content_filter"; Anthropic's
            stop_reason "end_turn", "max_tokens", "refusal"); the default
            is the API's word for a finished reply
  body      the exact body instead: a string, or any JSON value
  delay     seconds to wait before answering
  wait_for  a path: answer only once it exists (at most 60 seconds)
  close     true: close the connection without answering

Every request is appended to --log as one JSON line, before it is answered:
{"method", "path", "headers" (names in lower case), "body" (parsed when it is
JSON, else the text)}.

With --tls-cert and --tls-key it speaks HTTPS with that certificate.
"""
import argparse
import json
import os
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
state = {"script": None, "next": 0}


def next_response(path):
    with lock:
        with open(path, encoding="utf-8") as f:
            text = f.read()
            key = (text, os.fstat(f.fileno()).st_mtime_ns)
        if key != state["script"]:
            state["script"] = key
            state["next"] = 0
        script = json.loads(text)
        if not script:
            return {"status": 500, "body": {"error": {"message": "stub: empty script"}}}
        i = min(state["next"], len(script) - 1)
        state["next"] += 1
        return script[i]


def api_body(path, text, model, stop=None):
    if path.rstrip("/").endswith("/messages"):
        return {
            "id": "msg_stub", "type": "message", "role": "assistant",
            "model": model, "stop_reason": stop or "end_turn",
            "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    return {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 0,
        "model": model,
        "choices": [{"index": 0, "finish_reason": stop or "stop",
                     "message": {"role": "assistant", "content": text}}],
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, raw):
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError:
            body = raw.decode("utf-8", "replace")
        entry = {
            "method": self.command,
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": body,
        }
        with lock:
            with open(self.server.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
        return body

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        req = self.record(raw)
        r = next_response(self.server.script)
        if r.get("wait_for"):
            end = time.time() + 60
            while not os.path.exists(r["wait_for"]) and time.time() < end:
                time.sleep(0.02)
        if r.get("delay"):
            time.sleep(r["delay"])
        if r.get("close"):
            self.close_connection = True
            return
        if "reply" in r:
            model = req.get("model", "") if isinstance(req, dict) else ""
            body = api_body(self.path, r["reply"], model, r.get("stop"))
        else:
            body = r.get("body", "")
        data = body if isinstance(body, str) else json.dumps(body)
        data = data.encode("utf-8")
        try:
            self.send_response(r.get("status", 200))
            headers = {"Content-Type": "application/json"}
            headers.update(r.get("headers", {}))
            for k, v in headers.items():
                self.send_header(k, str(v))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass    # the client gave up (a timeout): nothing to answer

    do_POST = handle_any
    do_GET = handle_any


def tick(fd):
    """a line "." on fd every 20 ms; none while no one reads (EPIPE: Python
    ignores SIGPIPE), and a line a reader left unread only wakes it once
    more, so a reader checks its own condition at each line"""
    while True:
        time.sleep(0.02)
        try:
            os.write(fd, b".\n")
        except BrokenPipeError:
            pass
        except OSError:
            return


def main():
    ap = argparse.ArgumentParser()
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--port-file")
    where.add_argument("--port-fd", type=int)
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    a = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if a.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls_cert, a.tls_key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    server.script = a.script
    server.log = a.log
    if a.port_fd is None:
        tmp = a.port_file + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("%d\n" % server.server_address[1])
        os.rename(tmp, a.port_file)
    else:
        os.set_inheritable(a.port_fd, False)
        os.write(a.port_fd, b"%d\n" % server.server_address[1])
        threading.Thread(target=tick, args=(a.port_fd,), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
