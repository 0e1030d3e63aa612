#!/usr/bin/env python3
"""Load benchmark for the home service (issue 35): C clients x N mixed requests against one
`hearth serve --http` on loopback, then counts and latency percentiles.

    scripts/http_load.py [--clients 4] [--requests 500] [--binary .build/release/hearth] [--seed 35] [--json]

It makes a demo family in a temporary folder, adds a device token for each of Lisa, Tom, Emma and a
read-only display, starts the service on a free loopback port, and each client sends a mix of
turns (questions, bookings, reminders, refused changes), notification listings and acks, health and
metrics. Checked at the end: no 5xx, no lost request (every one answered), and every event booked
by a 200 is in the database exactly once. Loopback only; bounded in count; stops by itself.
"""
import argparse
import http.client
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
NOW = "2026-02-02T09:00:00-05:00"
QUESTIONS = ["what's on today", "what does Jake have this week", "where is everyone", "what are my chores",
             "how many points does Emma have", "what are my reminders", "is Jake free Friday at 3", "who's in the family"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def run(binary, *args):
    return subprocess.run([binary, *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def token(binary, db, member, name, scope="full"):
    out = run(binary, "device", "add", "--member", member, "--name", name, "--scope", scope, "--as", "Lisa", "--db", db, "--now", NOW)
    return next(line for line in out.splitlines() if line.startswith("hth_"))


def request(port, method, path, token=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    started = time.perf_counter()
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return response.status, payload, elapsed


def client(index, port, tokens, count, seed, results, booked):
    rng = random.Random(seed * 1000 + index)
    for number in range(count):
        kind = rng.random()
        who = rng.choice(["Lisa", "Tom", "Emma", "display"])
        if kind < 0.45:
            status, _, elapsed = request(port, "POST", "/v1/turns", tokens[who], {"text": rng.choice(QUESTIONS), "session": f"c{index}"})
            label = "question"
        elif kind < 0.65:
            title = f"load{index}x{number}"
            text = f"Schedule Jake for {title} on {rng.choice(DAYS)} at {rng.randint(1, 7)}pm"
            status, payload, elapsed = request(port, "POST", "/v1/turns", tokens[who], {"text": text, "session": f"b{index}x{number}"})
            label = "booking"
            if status == 200 and json.loads(payload).get("state") == "result_ready":
                booked.append(title)
        elif kind < 0.85:
            status, payload, elapsed = request(port, "GET", "/v1/notifications", tokens[who])
            label = "notifications"
            if status == 200:
                for item in json.loads(payload)["notifications"][:2]:
                    ack_status, _, ack_elapsed = request(port, "POST", f"/v1/notifications/{item['id']}/ack", tokens[who])
                    results.append(("ack", ack_status, ack_elapsed))
        elif kind < 0.95:
            status, _, elapsed = request(port, "GET", "/healthz")
            label = "healthz"
        else:
            status, _, elapsed = request(port, "GET", "/metrics")
            label = "metrics"
        results.append((label, status, elapsed))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/hearth"))
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="hearth-load-")
    db = os.path.join(folder, "family.sqlite")
    run(arguments.binary, "init", "--demo", "--db", db, "--now", NOW)
    tokens = {name: token(arguments.binary, db, name, f"{name}'s phone") for name in ["Lisa", "Tom", "Emma"]}
    tokens["display"] = token(arguments.binary, db, "Lisa", "display", "read")
    server = subprocess.Popen([arguments.binary, "serve", "--http", "127.0.0.1:0", "--db", db, "--tick-every", "5"],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().strip().rsplit(":", 1)[1])
        results, booked = [], []
        threads = [threading.Thread(target=client, args=(i, port, tokens, arguments.requests, arguments.seed, results, booked))
                   for i in range(arguments.clients)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    connection = sqlite3.connect(db)
    stored = {title: connection.execute("SELECT COUNT(*) FROM event WHERE lower(title) = lower(?)", (title,)).fetchone()[0] for title in booked}
    lost = [title for title, count in stored.items() if count != 1]
    latencies = [elapsed for _, _, elapsed in results]
    summary = {
        "clients": arguments.clients, "requests": len(results), "wall_seconds": round(wall, 2),
        "requests_per_second": round(len(results) / wall, 1),
        "status": {str(code): sum(1 for _, status, _ in results if status == code) for code in sorted({s for _, s, _ in results})},
        "server_errors": sum(1 for _, status, _ in results if status >= 500),
        "bookings": len(booked), "bookings_not_stored_exactly_once": len(lost),
        "p50_ms": round(percentile(latencies, 0.5) * 1000, 1), "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "turn_p99_ms": round(percentile([e for label, _, e in results if label in ("question", "booking")], 0.99) * 1000, 1),
        "exit_status": server.returncode,
    }
    print(json.dumps(summary) if arguments.json else "\n".join(f"{key}: {value}" for key, value in summary.items()))
    return 1 if summary["server_errors"] or lost else 0


if __name__ == "__main__":
    sys.exit(main())
