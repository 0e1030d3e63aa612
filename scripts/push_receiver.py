#!/usr/bin/env python3
"""A webhook receiver for testing Hearth's pushes (issue 36), written apart from Hearth's code.

It listens on 127.0.0.1 (an OS-chosen port, printed as the first line: "listening PORT"), answers
the n-th request carrying the same Idempotency-Key by the n-th word of --plan ("fail": 500,
"timeout": waits --hang seconds then 200, "ok": 200; after the plan, "ok"), checks each request's
signature independently with the secret in --secret-file (read at each request, so the receiver
can start before the target is made; HMAC-SHA256 over "TIMESTAMP.BODY", hex, "sha256=" prefix),
and appends one JSON line per request to --log:
{"n", "attempt", "path", "key", "timestamp", "signature_ok", "answer", "headers", "body"}.

    scripts/push_receiver.py --secret-file /tmp/secret --plan fail,timeout --log /tmp/pushes.jsonl
"""
import argparse
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--plan", default="")
    parser.add_argument("--hang", type=float, default=3.0)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    plan = [word for word in args.plan.split(",") if word]
    lock = threading.Lock()
    count = [0]
    attempts: dict = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            key = self.headers.get("Idempotency-Key") or ""
            with lock:
                n = count[0]
                count[0] += 1
                attempt = attempts.get(key, 0)
                attempts[key] = attempt + 1
            answer = plan[attempt] if attempt < len(plan) else "ok"
            timestamp = self.headers.get("X-Hearth-Timestamp", "")
            with open(args.secret_file, encoding="utf-8") as file:
                secret = file.read().strip()
            expected = "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
            signature_ok = hmac.compare_digest(expected, self.headers.get("X-Hearth-Signature", ""))
            record = {
                "n": n, "attempt": attempt, "path": self.path, "key": key, "timestamp": timestamp,
                "signature_ok": signature_ok, "answer": answer, "headers": {k: v for k, v in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            }
            with lock, open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(record) + "\n")
            if answer == "timeout":
                time.sleep(args.hang)
            status = 500 if answer == "fail" else 200
            try:
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")
            except (BrokenPipeError, ConnectionResetError):
                pass  # Hearth gave up waiting

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
