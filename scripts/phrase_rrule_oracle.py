#!/usr/bin/env python3
"""Expected occurrences of generated repeat phrases, for Hearth's phrase differential test.

Usage: python3 scripts/phrase_rrule_oracle.py CASES.json  >  RESULTS.json

The test generates a phrase and, from the same grammar parts, the RRULE it must mean (without
DTSTART, COUNT or UNTIL). This script turns that rule into occurrences with python-dateutil, using
the conventions docs/using.md ("Time phrases") states, and never Hearth's code:

  * the first occurrence is the first day on or after today that fits the rule's days (the interval
    is not applied to find it; a weekly rule naming no day fits any day), at the phrase's time of
    day or 00:00; with a time, today counts only when that time is still ahead of now;
  * the interval counts from the first occurrence, which is DTSTART;
  * extents: {"count": n} is COUNT=n; {"until": "YYYY-MM-DD"} ends with that day (inclusive);
    {"until_month": "YYYY-MM"} ends before that month starts; {"for": [n, unit]} is COUNT=n when the
    unit is the rule's own (day/DAILY, week/WEEKLY, month/MONTHLY, year/YEARLY), the interval is 1 and
    at most one day is named, else it ends before the day n units after the first occurrence.
    A rule whose end comes before its first occurrence is refused;
  * the expansion itself (wall-clock recurrence, zoneinfo, inclusive UTC UNTIL) is
    scripts/rrule_oracle.py's `expand`.

CASES.json: {"cases": [{"id": 0, "rule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "tz": "America/New_York",
              "now": "2026-02-02T09:17:00", "time": "16:30" | null, "extent": {...},
              "window_days": 731}, ...]}
Output: {"results": [{"id": 0, "first": "2026-02-02T16:30:00", "occurrences": [unix, ...]}
                     | {"id": 0, "refused": true} | {"id": 0, "error": "..."}]}
The window is [today 00:00, + window_days days), both returned as unix seconds.
"""
import json
import os
import sys
import warnings
from datetime import datetime, timedelta, timezone

from dateutil.relativedelta import relativedelta
from dateutil.rrule import rrulestr
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rrule_oracle import expand  # noqa: E402

warnings.simplefilter("ignore")

SAME_UNIT = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}


def parts_of(rule):
    out = {}
    for part in rule.split(";"):
        name, _, value = part.partition("=")
        out[name.upper()] = value
    return out


def utc_stamp(local_naive, tz):
    instant = local_naive.replace(tzinfo=tz).astimezone(timezone.utc)
    return instant.strftime("%Y%m%dT%H%M%SZ")


def solve(case):
    tz = ZoneInfo(case["tz"])
    now = datetime.fromisoformat(case["now"])
    time = case.get("time")
    if time:
        hour, minute = (int(x) for x in time.split(":"))
        base = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    else:
        base = now.replace(hour=0, minute=0, second=0, microsecond=0)
    rule = case["rule"]
    parts = parts_of(rule)
    no_interval = ";".join(p for p in rule.split(";") if not p.upper().startswith("INTERVAL="))
    if parts["FREQ"] == "WEEKLY" and "BYDAY" not in parts:
        # A weekly rule naming no day: any day fits ("every week at 8" said after 8 starts tomorrow).
        no_interval = no_interval.replace("FREQ=WEEKLY", "FREQ=DAILY")
    # The first day that fits the rule's days, today included (interval not applied).
    first = None
    for candidate in rrulestr(no_interval, dtstart=base):
        if not time or candidate > now:
            first = candidate
            break
        if candidate > base + timedelta(days=3700):
            break
    if first is None:
        return {"refused": True}

    text = rule
    extent = case.get("extent") or {}
    if "count" in extent:
        text += ";COUNT=%d" % extent["count"]
    elif "until" in extent:
        last = datetime.fromisoformat(extent["until"])
        if first.date() > last.date():
            return {"refused": True}
        text += ";UNTIL=" + utc_stamp(last + timedelta(days=1) - timedelta(seconds=1), tz)
    elif "until_month" in extent:
        y, m = (int(x) for x in extent["until_month"].split("-"))
        start = datetime(y, m, 1)
        if first >= start:
            return {"refused": True}
        text += ";UNTIL=" + utc_stamp(start - timedelta(seconds=1), tz)
    elif "for" in extent:
        n, unit = extent["for"]
        days_named = len([d for d in parts.get("BYDAY", "").split(",") if d])
        month_days = len([d for d in parts.get("BYMONTHDAY", "").split(",") if d])
        simple = (SAME_UNIT[unit] == parts["FREQ"] and int(parts.get("INTERVAL", "1")) == 1
                  and days_named <= 1 and month_days <= 1 and "BYSETPOS" not in parts)
        if simple:
            text += ";COUNT=%d" % n
        else:
            day = datetime(first.year, first.month, first.day)
            end = day + relativedelta(**{unit + "s": n})
            text += ";UNTIL=" + utc_stamp(end - timedelta(seconds=1), tz)

    # From the start of today (an all-day first occurrence is today at 00:00).
    window_start = int(now.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=tz).timestamp())
    window_end = window_start + case["window_days"] * 86400
    occurrences = expand({
        "rrule": text, "tz": case["tz"], "dtstart": first.isoformat(),
        "window_start": window_start, "window_end": window_end, "duration": 0,
    })
    return {"first": first.isoformat(), "rrule": text, "occurrences": occurrences,
            "window_start": window_start, "window_end": window_end}


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)["cases"]
    results = []
    for case in cases:
        try:
            result = solve(case)
        except Exception as error:  # reported per case, the test shows it
            result = {"error": f"{type(error).__name__}: {error}"}
        result["id"] = case["id"]
        results.append(result)
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
