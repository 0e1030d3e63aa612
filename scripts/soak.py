#!/usr/bin/env python3
"""Soak test for `hearth serve --stdio`: pipes N mixed JSON lines into one server and samples its
resident memory (VmRSS, RssAnon from /proc/PID/status) as the replies come back.

    scripts/soak.py [--lines 200000] [--every 5000] [--binary .build/release/hearth] [--db FILE]
                    [--seed 26] [--json]

The mix follows the engine's fuzz test (Tests/HearthEngineTests/FuzzTests.swift): grammar examples
with words dropped, swapped or duplicated, random words, random bytes, as turns from many speakers
(known and unknown) on many distinct session ids; logins with wrong PINs, logouts, hello, tick,
location reports, acks of unknown notifications, bad JSON and unknown types. Every line carries a
pinned `now` that moves forward a few seconds a line, so open questions expire as they would.

Nothing of what is sent or answered is printed: only counts and memory figures.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SPEAKERS = ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue", "lisa", "dad", "Nobody", "Zed"]
MEMBERS = ["Lisa", "Tom", "Emma", "Jake"]
WORDS = ("schedule book dentist soccer at on for the and tomorrow friday monday 4pm 10am noon every week "
         "remind me to take out trash chore points reward where is everyone emma jake tom lisa message tell "
         "cancel yes no the first one move it proceed anyway what's my schedule free time hour minutes "
         "pick up groceries school bus trip flight hotel check in on reply home work").split()


def examples():
    texts = []
    for name in sorted(os.listdir(os.path.join(ROOT, "Intents"))):
        if name.endswith(".yaml"):
            with open(os.path.join(ROOT, "Intents", name), encoding="utf-8") as handle:
                texts += re.findall(r'^\s*- text: "((?:[^"\\]|\\.)*)"', handle.read(), re.M)
    return texts or ["where is everyone"]


def mutate(rng, text):
    words = text.split()
    for _ in range(rng.randint(0, 4)):
        if not words:
            break
        at = rng.randrange(len(words))
        change = rng.choice(["drop", "swap", "dup", "word"])
        if change == "drop":
            words.pop(at)
        elif change == "swap":
            other = rng.randrange(len(words))
            words[at], words[other] = words[other], words[at]
        elif change == "dup":
            words.insert(at, words[at])
        else:
            words.insert(at, rng.choice(WORDS))
    return " ".join(words)


class Mix:
    """Lines of every kind, reproducible from the seed."""

    def __init__(self, seed, sessions, start):
        self.rng = random.Random(seed)
        self.examples = examples()
        self.sessions = sessions
        self.now = start
        self.kinds = {}

    def session(self):
        # Mostly a new or rare session id (front ends that start one per utterance), some recurring ones.
        if self.rng.random() < 0.3:
            return "kitchen-%d" % self.rng.randrange(8)
        return "s-%d" % self.rng.randrange(self.sessions)

    def line(self, index):
        rng = self.rng
        self.now += timedelta(seconds=rng.randint(1, 20))
        now = self.now.isoformat()
        roll = rng.random()
        base = {"id": index, "now": now, "session": self.session()}
        if roll < 0.45:
            kind, text = "example", mutate(rng, rng.choice(self.examples))
        elif roll < 0.55:
            kind, text = "words", " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))
        elif roll < 0.58:
            kind, text = "bytes", "".join(chr(rng.randint(32, 0x2FF)) for _ in range(rng.randint(0, 120)))
        elif roll < 0.62:
            kind = "login"
            line = dict(base, type="login", speaker=rng.choice(SPEAKERS), pin="%04d" % rng.randrange(10000))
        elif roll < 0.65:
            kind, line = "logout", dict(base, type="logout")
        elif roll < 0.68:
            kind, line = "hello", dict(base, type="hello")
        elif roll < 0.71:
            kind, line = "tick", dict(base, type="tick", speaker=rng.choice(["Lisa", "Tom"]))
        elif roll < 0.75:
            kind = "location"
            line = dict(base, type="location", speaker=rng.choice(SPEAKERS), member=rng.choice(MEMBERS),
                        lat=40.7 + rng.random() / 10, lon=-74.0 + rng.random() / 10, accuracy=rng.randint(5, 100),
                        battery=rng.randint(0, 100))
        elif roll < 0.78:
            kind = "ack"
            line = dict(base, type="ack", speaker=rng.choice(SPEAKERS), notification="ntf_%012x" % rng.getrandbits(48))
        elif roll < 0.82:
            kind = "unknown_type"
            line = dict(base, type=rng.choice(["parse", "warp", "say", "x%d" % rng.randrange(1000)]), text="hello")
        elif roll < 0.86:
            kind = "bad_json"
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            return rng.choice(["this is not json", "{", '{"id": 1, "text": }', "[1,2,3]", "null", '{"text": 5}'])
        else:
            kind, text = "answer", rng.choice(["yes", "no", "the first one", "2", "cancel", "proceed anyway",
                                                "move it to 5pm", "and Jake?", "undo that", "never mind"])
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if kind in ("example", "words", "bytes", "answer"):
            line = dict(base, text=text, speaker=rng.choice(SPEAKERS))
        return json.dumps(line, ensure_ascii=False)


def memory(pid):
    values = {}
    with open("/proc/%d/status" % pid) as handle:
        for row in handle:
            name, _, rest = row.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                values[name] = int(rest.split()[0]) / 1024  # MB
    return values


def mappings(pid):
    """Resident MB by kind of mapping: the malloc heap, other anonymous memory (malloc arenas,
    mmapped blocks, stacks), executable anonymous memory (PCRE2's JIT code) and files."""
    kinds, kind = {}, None
    with open("/proc/%d/smaps" % pid) as handle:
        for row in handle:
            fields = row.split()
            if "-" in fields[0] and len(fields) >= 5 and not row.startswith(("Rss", "Size")) and fields[0][0] in "0123456789abcdef" and ":" not in fields[0]:
                path = fields[5] if len(fields) > 5 else ""
                perms = fields[1]
                if path == "[heap]":
                    kind = "heap"
                elif path.startswith("/"):
                    kind = "file"
                elif "x" in perms:
                    kind = "jit"
                else:
                    kind = "anon"
            elif fields[0] == "Rss:" and kind:
                kinds[kind] = kinds.get(kind, 0) + int(fields[1]) / 1024
    return kinds


def soak(binary, db, lines, every, seed, sessions, out=sys.stderr, extra=(), wrap=()):
    start = datetime(2026, 2, 2, 9, 0, tzinfo=timezone(timedelta(hours=-5)))
    mix = Mix(seed, sessions, start)
    process = subprocess.Popen(list(wrap) + [binary, "serve", "--stdio", "--db", db] + list(extra), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=1 << 16)
    samples = []
    answered = [0]
    lock = threading.Condition()

    def read():
        for _ in process.stdout:
            with lock:
                answered[0] += 1
                lock.notify_all()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started = time.time()
    # Lines go in batches of `every`; the sample is taken once every line of a batch is answered,
    # so the figure is the server's between batches, not mid-burst.
    sent = 0
    samples.append((0, memory(process.pid)))
    while sent < lines:
        batch = min(every, lines - sent)
        payload = "".join(mix.line(sent + i) + "\n" for i in range(batch)).encode()
        process.stdin.write(payload)
        process.stdin.flush()
        sent += batch
        with lock:
            while answered[0] < sent and process.poll() is None:
                lock.wait(1)
        if process.poll() is not None:
            raise SystemExit("hearth exited early (status %s) after %d lines" % (process.returncode, answered[0]))
        figures = memory(process.pid)
        if os.environ.get("HEARTH_SOAK_SMAPS"):
            print("          " + "  ".join("%s %.1f" % item for item in sorted(mappings(process.pid).items())), file=out)
        samples.append((sent, figures))
        print("%8d lines  VmRSS %6.1f MB  RssAnon %6.1f MB  RssFile %5.1f MB  %6.0f lines/s" %
              (sent, figures["VmRSS"], figures["RssAnon"], figures["RssFile"], sent / (time.time() - started)), file=out, flush=True)
    process.stdin.close()
    process.wait()
    reader.join()
    return samples, mix.kinds, process.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=int(os.environ.get("HEARTH_SOAK_LINES", "200000")))
    parser.add_argument("--every", type=int, default=5000)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/hearth"))
    parser.add_argument("--db", help="a family database (default: a fresh demo family in a temporary directory)")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--sessions", type=int, default=1_000_000, help="how many distinct session ids to draw from")
    parser.add_argument("--wrap", default="", help="a command to run hearth under, e.g. 'heaptrack -o /tmp/h' (memory figures are then the wrapper's)")
    parser.add_argument("--json", action="store_true", help="print the samples as JSON on stdout at the end")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        db = arguments.db
        if db is None:
            db = os.path.join(directory, "family.sqlite")
            subprocess.run([arguments.binary, "init", "--demo", "--db", db], check=True, stdout=subprocess.DEVNULL)
        samples, kinds, status = soak(arguments.binary, db, arguments.lines, arguments.every, arguments.seed, arguments.sessions,
                                     wrap=arguments.wrap.split())
    print("kinds: %s; exit %d" % (json.dumps(kinds, sort_keys=True), status), file=sys.stderr)
    if arguments.json:
        print(json.dumps([{"lines": lines, **figures} for lines, figures in samples]))


if __name__ == "__main__":
    main()
