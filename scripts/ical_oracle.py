#!/usr/bin/env python3
"""Independent iCalendar oracle for Hearth's interop tests (Python `icalendar` + `recurring-ical-events`).

  ical_oracle.py expand FILE START END   parse FILE and expand its occurrences overlapping [START, END)
                                          (ISO 8601 instants with offsets); prints JSON:
                                          {"events": [{uid, summary, location, attendees, rrule, exdates}],
                                           "occurrences": [{summary, start, end, all_day}]}
                                          timed starts/ends as UTC "YYYY-MM-DDTHH:MM:SSZ", all-day as "YYYY-MM-DD".
  ical_oracle.py fetch URL START END    the same for a subscribed feed (issue 36): GET the URL as a calendar app
                                          would (If-None-Match with the ETag it got, expecting 304), then expand.
                                          Adds "etag", "not_modified" (the second GET's status was 304) and
                                          "timezones": [{tzid, agrees}] (each VTIMEZONE's offsets, read by icalendar,
                                          agree with the IANA zone of that name at every hour of the window).
  ical_oracle.py write FILE              write a reference calendar with the `icalendar` library.

Exit status 3 when the libraries are missing (the caller installs them).
"""
import json
import sys
from datetime import date, datetime, timedelta, timezone

try:
    import icalendar
    import recurring_ical_events
    from zoneinfo import ZoneInfo
except ImportError as error:  # pragma: no cover
    print(f"ical_oracle: missing Python library: {error}", file=sys.stderr)
    sys.exit(3)


def instant_text(value):
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise SystemExit(f"ical_oracle: floating time {value} in an oracle comparison")
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def expand(path, start, end, extra=None):
    with open(path, "rb") as handle:
        data = handle.read()
    expand_data(data, start, end, extra)


def timezones(calendar, start, end):
    """Each VTIMEZONE read by icalendar itself, compared hour by hour with the IANA zone of its TZID."""
    result = []
    for component in calendar.walk("VTIMEZONE"):
        tzid = str(component["TZID"])
        agrees = True
        try:
            theirs = component.to_tz()
            iana = ZoneInfo(tzid)
            moment = start.astimezone(timezone.utc)
            while moment < end:
                if moment.astimezone(theirs).utcoffset() != moment.astimezone(iana).utcoffset():
                    agrees = False
                    break
                moment += timedelta(hours=1)
        except Exception as error:  # a VTIMEZONE icalendar cannot read does not agree
            print(f"ical_oracle: VTIMEZONE {tzid}: {error}", file=sys.stderr)
            agrees = False
        result.append({"tzid": tzid, "agrees": agrees})
    return result


def fetch(url, start, end):
    import urllib.error
    import urllib.request
    request = urllib.request.Request(url, headers={"User-Agent": "ical_oracle (a calendar subscriber)"})
    with urllib.request.urlopen(request, timeout=30) as response:
        data = response.read()
        etag = response.headers.get("ETag")
        content_type = response.headers.get("Content-Type")
    not_modified = False
    if etag:
        again = urllib.request.Request(url, headers={"If-None-Match": etag})
        try:
            with urllib.request.urlopen(again, timeout=30) as response:
                not_modified = response.status == 304
        except urllib.error.HTTPError as error:
            not_modified = error.code == 304
    expand_data(data, start, end, {"etag": etag, "not_modified": not_modified, "content_type": content_type})


def expand_data(data, start, end, extra=None):
    calendar = icalendar.Calendar.from_ical(data)
    events = []
    for component in calendar.walk("VEVENT"):
        attendees = component.get("ATTENDEE", [])
        if not isinstance(attendees, list):
            attendees = [attendees]
        exdates = []
        exdate_props = component.get("EXDATE", [])
        if not isinstance(exdate_props, list):
            exdate_props = [exdate_props]
        for prop in exdate_props:
            exdates += [instant_text(d.dt) for d in prop.dts]
        rrule = component.get("RRULE")
        events.append({
            "uid": str(component.get("UID", "")),
            "summary": str(component.get("SUMMARY", "")),
            "location": str(component["LOCATION"]) if "LOCATION" in component else None,
            "attendees": [str(a.params.get("CN", a)) for a in attendees],
            "rrule": rrule.to_ical().decode() if rrule is not None else None,
            "exdates": exdates,
            "start": instant_text(component.decoded("DTSTART")),
        })
    occurrences = []
    for occurrence in recurring_ical_events.of(calendar).between(start, end):
        begin = occurrence.decoded("DTSTART")
        finish = occurrence.decoded("DTEND") if "DTEND" in occurrence else begin + occurrence.decoded("DURATION")
        occurrences.append({
            "summary": str(occurrence.get("SUMMARY", "")),
            "start": instant_text(begin),
            "end": instant_text(finish),
            "all_day": not isinstance(begin, datetime),
        })
    occurrences.sort(key=lambda o: (o["start"], o["summary"]))
    result = {"events": events, "occurrences": occurrences, "timezones": timezones(calendar, start, end)}
    result.update(extra or {})
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))


def write(path):
    ny = ZoneInfo("America/New_York")
    la = ZoneInfo("America/Los_Angeles")
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Hearth interop oracle//python icalendar//EN")
    cal.add("version", "2.0")

    def event(uid, summary, start, end=None, duration=None):
        e = icalendar.Event()
        e.add("uid", uid)
        e.add("dtstamp", datetime(2026, 1, 20, 12, 0, tzinfo=timezone.utc))
        e.add("summary", summary)
        e.add("dtstart", start)
        if end is not None:
            e.add("dtend", end)
        if duration is not None:
            e.add("duration", duration)
        cal.add_component(e)
        return e

    dentist = event("dentist-1@oracle", "Dentist, Dr. Smith; checkup", datetime(2026, 2, 5, 16, 0, tzinfo=ny),
                    datetime(2026, 2, 5, 17, 0, tzinfo=ny))
    dentist.add("location", "12 Main St, Suite 4; 2nd floor")
    dentist.add("attendee", "mailto:emma@example.com", parameters={"CN": "Emma", "ROLE": "REQ-PARTICIPANT"})
    dentist.add("attendee", "mailto:someone@example.com", parameters={"CN": "Someone Else"})
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", "Reminder")
    alarm.add("trigger", timedelta(minutes=-30))
    dentist.add_component(alarm)

    call = event("call-1@oracle", "Call with Grandma\nbring the photos", datetime(2026, 2, 10, 23, 30, tzinfo=timezone.utc),
                 duration=timedelta(minutes=45))
    call.add("attendee", "mailto:jake@example.com")

    event("ski-1@oracle", "Ski trip", date(2026, 2, 14), date(2026, 2, 17))

    piano = event("piano-1@oracle", "Piano lesson", datetime(2026, 2, 3, 17, 0, tzinfo=ny), datetime(2026, 2, 3, 17, 45, tzinfo=ny))
    piano.add("rrule", {"freq": "weekly", "byday": "TU", "count": 10})
    piano.add("exdate", datetime(2026, 2, 17, 17, 0, tzinfo=ny))
    piano.add("location", "Music school")

    # One occurrence moved (a RECURRENCE-ID override): 3 March at 18:00 instead of 17:00.
    moved = event("piano-1@oracle", "Piano lesson (moved)", datetime(2026, 3, 3, 18, 0, tzinfo=ny), datetime(2026, 3, 3, 18, 45, tzinfo=ny))
    moved.add("recurrence-id", datetime(2026, 3, 3, 17, 0, tzinfo=ny))

    swim = event("swim-1@oracle", "Swim club", datetime(2026, 2, 7, 9, 30, tzinfo=ny), datetime(2026, 2, 7, 11, 0, tzinfo=ny))
    swim.add("rrule", {"freq": "weekly", "interval": 2, "until": datetime(2026, 4, 4, 14, 30, tzinfo=timezone.utc)})

    event("flight-1@oracle", "Flight to LA", datetime(2026, 3, 2, 8, 15, tzinfo=la), datetime(2026, 3, 2, 11, 5, tzinfo=la))

    todo = icalendar.Todo()
    todo.add("uid", "todo-1@oracle")
    todo.add("summary", "Buy milk")
    cal.add_component(todo)

    try:
        cal.add_missing_timezones()  # VTIMEZONE components, as real clients write them
    except AttributeError:  # older icalendar
        pass
    with open(path, "wb") as handle:
        handle.write(cal.to_ical())


def main(argv):
    if len(argv) == 5 and argv[1] == "expand":
        expand(argv[2], datetime.fromisoformat(argv[3]), datetime.fromisoformat(argv[4]))
    elif len(argv) == 5 and argv[1] == "fetch":
        fetch(argv[2], datetime.fromisoformat(argv[3]), datetime.fromisoformat(argv[4]))
    elif len(argv) == 3 and argv[1] == "write":
        write(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
