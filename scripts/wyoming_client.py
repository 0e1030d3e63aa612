#!/usr/bin/env python3
"""Drives a Wyoming server with the `wyoming` package's own client (PyPI), for Hearth's tests.

Usage: wyoming_client.py HOST PORT < steps.json
Each step is one of
  ["describe"]                      -> the server's info event
  ["transcript", TEXT, CONTEXT?]    -> handled / not-handled
  ["recognize", TEXT]               -> intent / not-recognized
  ["ping", TEXT]                    -> pong
  ["reconnect"]                     -> closes the connection and opens a new one
Prints one JSON line per answer: {"type": ..., "data": ...}. Exits 3 when `wyoming` is not installed.
"""
import asyncio
import json
import sys

try:
    from wyoming.asr import Transcript
    from wyoming.client import AsyncTcpClient
    from wyoming.handle import Handled, NotHandled
    from wyoming.info import Describe, Info
    from wyoming.intent import Intent, NotRecognized, Recognize
    from wyoming.ping import Ping
except ImportError:
    print("the Python package 'wyoming' is missing: python3 -m pip install wyoming", file=sys.stderr)
    sys.exit(3)


def answer(event):
    """Reads the event back through the package's own classes, so a malformed one fails here."""
    if Info.is_type(event.type):
        info = Info.from_event(event)
        return {"type": "info", "data": {
            "handle": [{"name": p.name, "installed": p.installed, "languages": sorted({l for m in p.models for l in m.languages})} for p in info.handle],
            "intent": [{"name": p.name, "installed": p.installed, "models": [m.name for m in p.models],
                        "languages": sorted({l for m in p.models for l in m.languages})} for p in info.intent]}}
    if Handled.is_type(event.type):
        handled = Handled.from_event(event)
        return {"type": "handled", "data": {"text": handled.text, "context": handled.context}}
    if NotHandled.is_type(event.type):
        not_handled = NotHandled.from_event(event)
        return {"type": "not-handled", "data": {"text": not_handled.text, "context": not_handled.context}}
    if Intent.is_type(event.type):
        intent = Intent.from_event(event)
        return {"type": "intent", "data": {"name": intent.name, "entities": {e.name: e.value for e in intent.entities}}}
    if NotRecognized.is_type(event.type):
        return {"type": "not-recognized", "data": {"text": NotRecognized.from_event(event).text}}
    return {"type": event.type, "data": event.data}


async def main(host, port, steps):
    client = AsyncTcpClient(host, port, connect_timeout=10, read_timeout=30)
    await client.connect()
    try:
        for step in steps:
            kind = step[0]
            if kind == "reconnect":
                await client.disconnect()
                await client.connect()
                continue
            if kind == "describe":
                await client.write_event(Describe().event())
            elif kind == "transcript":
                await client.write_event(Transcript(text=step[1], context=step[2] if len(step) > 2 else None, language="en").event())
            elif kind == "recognize":
                await client.write_event(Recognize(text=step[1]).event())
            elif kind == "ping":
                await client.write_event(Ping(text=step[1]).event())
            else:
                raise SystemExit(f"unknown step {kind}")
            event = await client.read_event()
            if event is None:
                raise SystemExit("the server closed the connection")
            print(json.dumps(answer(event), sort_keys=True), flush=True)
    finally:
        await client.disconnect()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), json.load(sys.stdin)))
