#!/usr/bin/env python3
"""Reference expansion of RFC 5545 RRULEs with python-dateutil, for Hearth's differential test.

Usage: python3 scripts/rrule_oracle.py CASES.json  >  RESULTS.json

CASES.json: {"cases": [{"id": 0, "rrule": "FREQ=WEEKLY;BYDAY=MO;UNTIL=20261231T235959Z",
                        "tz": "America/New_York", "dtstart": "2026-03-02T15:30:00",
                        "window_start": 1772000000, "window_end": 1773000000, "duration": 3600}, ...]}
  dtstart is a naive local wall time in tz; window bounds are unix seconds; duration in seconds.

Output: {"results": [{"id": 0, "occurrences": [unix seconds, ...]}, ...]} (or {"id": .., "error": ".."}).

Semantics, matching Hearth's RecurrenceExpander:
  * the rule is expanded by dateutil.rrule.rrulestr on the naive local DTSTART (wall-clock recurrence);
  * RFC 5545: DTSTART is always the first occurrence and counts towards COUNT — dateutil's bare rrule
    drops a DTSTART that does not match the rule, so it is prepended here when missing;
  * local wall times become instants with zoneinfo, fold=0 (a time in a spring-forward gap uses the
    offset before the gap, a repeated time its first instant);
  * UNTIL (UTC) is applied to instants, inclusive (dateutil refuses a UTC UNTIL with a naive DTSTART);
  * MINUTELY/HOURLY step the naive wall time; wall times mapping to the same instant count (COUNT)
    separately but are reported once;
  * an occurrence [start, start+duration) is returned when start < window_end and
    (start >= window_start or start + duration > window_start).
"""
import json
import sys
import warnings
from datetime import datetime, timedelta, timezone

from dateutil.rrule import rrulestr
from zoneinfo import ZoneInfo

warnings.simplefilter("ignore")  # COUNT + an internal UNTIL bound is "deprecated" in dateutil


def parse_until(value):
    value = value.upper()
    if len(value) == 8:
        d = datetime.strptime(value, "%Y%m%d")
        return d.replace(hour=23, minute=59, second=59, tzinfo=timezone.utc)
    return datetime.strptime(value.rstrip("Z"), "%Y%m%dT%H%M%S").replace(tzinfo=timezone.utc)


def expand(case):
    tz = ZoneInfo(case["tz"])
    dtstart = datetime.fromisoformat(case["dtstart"])
    text = case["rrule"]
    if text.upper().startswith("RRULE:"):
        text = text[6:]
    parts, until = [], None
    for part in text.split(";"):
        if not part:
            continue
        name, _, value = part.partition("=")
        if name.upper() == "UNTIL":
            until = parse_until(value)
        else:
            parts.append(part)
    ws, we, duration = case["window_start"], case["window_end"], case["duration"]

    # Bound dateutil's iteration (in naive local time) a couple of days past everything that matters.
    bound = datetime.fromtimestamp(we, tz).replace(tzinfo=None) + timedelta(days=2)
    if until is not None:
        bound = min(bound, until.astimezone(tz).replace(tzinfo=None) + timedelta(days=2))
    count = None
    for part in parts:
        if part.upper().startswith("COUNT="):
            count = int(part.split("=", 1)[1])
    rule = rrulestr(";".join(parts), dtstart=dtstart)
    if bound >= dtstart:
        local = list(rule.replace(until=bound))
    else:
        local = []
    if not local or local[0] != dtstart:
        local.insert(0, dtstart)
    if count is not None:
        local = local[:count]

    result, last = [], None
    for wall in local:
        t = int(wall.replace(tzinfo=tz).timestamp())
        if until is not None and t > until.timestamp():
            break
        if t == last:  # two wall times in a spring-forward gap map to one instant: one occurrence
            continue
        last = t
        if t < we and (t >= ws or t + duration > ws):
            result.append(t)
    return result


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)["cases"]
    results = []
    for case in cases:
        try:
            results.append({"id": case["id"], "occurrences": expand(case)})
        except Exception as error:  # reported per case, the test shows it
            results.append({"id": case["id"], "error": f"{type(error).__name__}: {error}"})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
