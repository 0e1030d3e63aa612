#!/usr/bin/env python3
"""A second, independent CalDAV peer for the two-way sync test (issue 36): the PyPI `caldav`
client acting as a phone would, against the same collection `hearth caldav sync` uses.

  (run with .build/caldav-venv/bin/python: caldav replaces urllib3, so it lives in a venv)
  caldav_peer.py mkcalendar SERVER_URL USER PASSWORD NAME         prints the new calendar's URL
  caldav_peer.py list CAL_URL USER PASSWORD                        JSON: [{uid, summary, start, location}] by uid
  caldav_peer.py create CAL_URL USER PASSWORD UID SUMMARY START END   (START/END: 20260210T150000Z)
  caldav_peer.py edit CAL_URL USER PASSWORD UID [summary=..] [location=..] [start=.. end=..]
  caldav_peer.py delete CAL_URL USER PASSWORD UID
  caldav_peer.py ics FILE                                          the list of an .ics file (hearth export ics)

Starts are printed in UTC (ISO 8601, `Z`); all-day starts as dates.
"""
import datetime
import json
import sys

import caldav
import icalendar


def start_text(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.isoformat()
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def describe(component):
    return {
        "uid": str(component.get("uid")),
        "summary": str(component.get("summary", "")),
        "start": start_text(component.decoded("dtstart")),
        "location": str(component.get("location", "")),
    }


def main_events(calendar_text):
    cal = icalendar.Calendar.from_ical(calendar_text)
    return [c for c in cal.walk("VEVENT") if c.get("recurrence-id") is None]


def parse_time(text):
    return datetime.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)


def client(url, user, password):
    return caldav.DAVClient(url=url, username=user, password=password)


def main(argv):
    command = argv[1]
    if command == "ics":
        with open(argv[2], "rb") as f:
            items = [describe(c) for c in main_events(f.read())]
        print(json.dumps(sorted(items, key=lambda i: i["uid"]), ensure_ascii=False))
        return 0
    url, user, password = argv[2], argv[3], argv[4]
    with client(url, user, password) as dav:
        if command == "mkcalendar":
            principal = dav.principal()
            cal = principal.make_calendar(name=argv[5], cal_id=argv[5])
            print(str(cal.url))
            return 0
        cal = dav.calendar(url=url)
        if command == "list":
            items = []
            for event in cal.events():
                items += [describe(c) for c in main_events(event.data)]
            print(json.dumps(sorted(items, key=lambda i: i["uid"]), ensure_ascii=False))
        elif command == "create":
            uid, summary, start, end = argv[5], argv[6], argv[7], argv[8]
            cal.save_event(dtstart=parse_time(start), dtend=parse_time(end), summary=summary, uid=uid)
        elif command == "edit":
            event = cal.event_by_uid(argv[5])
            component = event.icalendar_component
            for change in argv[6:]:
                name, value = change.split("=", 1)
                if name in ("start", "end"):
                    key = "dtstart" if name == "start" else "dtend"
                    del component[key]
                    component.add(key, parse_time(value))
                else:
                    if name in component:
                        del component[name]
                    component.add(name, value)
            # A phone's edit moves the sequence and the stamp.
            sequence = int(component.get("sequence", 0)) + 1
            if "sequence" in component:
                del component["sequence"]
            component.add("sequence", sequence)
            event.save()
        elif command == "delete":
            cal.event_by_uid(argv[5]).delete()
        else:
            print(f"unknown command {command}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
