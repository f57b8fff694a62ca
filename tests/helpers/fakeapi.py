"""fakeapi.py - what the fake model APIs share (fake-gemini-api.py,
fake-model-api.py): a threaded HTTP server on 127.0.0.1 whose port goes to
a file once it listens, every request logged, one JSON object a line, the
replies' plumbing (JSON, server-sent events), and a quiet end on SIGTERM or
SIGINT. Each fake keeps only what its API speaks: its handler's do_POST
and its own options.

    p = fakeapi.options(__doc__)
    p.add_argument(...)              # the fake's own
    sys.exit(fakeapi.serve(MyHandler, p.parse_args()))
"""
import argparse
import json
import os
import signal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    """a fake API's handler: GET and HEAD answered here; do_POST its own"""
    protocol_version = "HTTP/1.1"
    # the body of a 404, as the API words it
    not_found = {"error": {"message": "not here"}}

    def log_message(self, fmt, *args):
        pass

    def log(self, entry):
        """entry appended to the request log (--log)"""
        with open(self.server.args.log, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def body(self):
        """the request's JSON body; {} when it has none, or not JSON"""
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def post(self):
        """a POST's body and path (without its query), logged"""
        req = self.body()
        self.log({"method": "POST", "path": self.path, "body": req})
        return req, self.path.split("?")[0]

    def reply_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def reply_not_found(self):
        self.reply_json(404, self.not_found)

    def start_sse(self):
        """a stream of events follows, the connection closed after it"""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def event(self, data, name=None, eol="\n"):
        """one server-sent event: data as JSON, under name when given"""
        text = "data: %s%s%s" % (json.dumps(data), eol, eol)
        if name is not None:
            text = "event: %s%s%s" % (name, eol, text)
        self.wfile.write(text.encode())
        self.wfile.flush()

    def do_GET(self):
        self.log({"method": "GET", "path": self.path})
        self.reply_not_found()

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()


def options(doc):
    """the options every fake takes: --port-file, --log, --read-path"""
    p = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port-file", required=True,
                   help="where the port goes once the server listens")
    p.add_argument("--log", required=True,
                   help="each request appended, one JSON object a line")
    p.add_argument("--read-path", default="notes.txt",
                   help="the file the model's tool call reads")
    return p


def _stop(signum, frame):
    raise KeyboardInterrupt


def serve(handler, args):
    """handler's server on 127.0.0.1 (a free port, written to
    args.port_file whole: its readers wait for the file) until SIGTERM or
    SIGINT; 0"""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.args = args
    signal.signal(signal.SIGTERM, _stop)
    with open(args.port_file + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(args.port_file + ".tmp", args.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0
