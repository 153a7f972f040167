#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares `ehsyslog decode --json` output (argv[1], one object a line)
with perf-decode's JSON (argv[2]): the same EventHeader events in the same
order with the same values.  Differences allowed, and why:
- perf-decode also prints non-user_events samples (sched:sched_switch);
  ehsyslog decode shows EventHeader events only, so those are dropped here.
- meta.time: perf-decode prints ISO 8601 UTC; eh_decode_json prints the
  same instant as seconds since the Epoch.  Both are compared as integer
  nanoseconds since the Epoch.
- field tags: this capture's JSON was made by an older perf-decode that
  did not print a field's tag; the newer one that made the .dat's JSON
  appends ";tag=0x...".  Our names carry the tag; it is removed here
  before comparing.
- code points past U+10FFFF: the decoder's conformance test allows these
  (tests/eventheader/decode_conformance.py, ALLOWED); the same list is
  used here.
- numbers are compared as their text, so 3.14 is 3.14 exactly.
Everything else (field names, order, values, the other meta items) must
match exactly."""
import calendar
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'eventheader'))
from decode_conformance import ALLOWED  # noqa: E402

TAG = re.compile(r';tag=0x[0-9A-F]+$')


def untag(v):
    if isinstance(v, dict):
        return {TAG.sub('', k): untag(x) for k, x in v.items()}
    if isinstance(v, list):
        return [untag(x) for x in v]
    return v


def load_golden(path):
    raw = open(path, 'rb').read().decode('utf-8', 'surrogateescape')
    doc = json.loads('{' + raw.lstrip('\ufeff') + '}', parse_float=str)
    (events,) = doc.values()
    return [e for e in events if not e['n'].startswith('sched:')]


def load_ours(path):
    raw = open(path, 'rb').read().decode('utf-8', 'surrogateescape')
    return [untag(json.loads(line, parse_float=str)) for line in raw.splitlines() if line]


def time_ns(v):
    """ISO 8601 UTC with nanoseconds, or seconds[.fraction] as a number or string."""
    v = str(v)
    if 'T' in v:
        date, frac = v.rstrip('Z').split('.') if '.' in v else (v.rstrip('Z'), '0')
        secs = calendar.timegm(tuple(int(x) for x in
                                     date.replace('T', '-').replace(':', '-').split('-')) + (0, 0, 0))
    else:
        s, _, frac = v.partition('.')
        secs = int(s)
        frac = frac or '0'
    return secs * 10**9 + int(frac.ljust(9, '0')[:9])


def main():
    ours, golden = load_ours(sys.argv[1]), load_golden(sys.argv[2])
    bad = 0
    if len(ours) != len(golden):
        print(f'count differs: ours {len(ours)}, perf-decode {len(golden)}')
        bad += 1
    for i, (a, b) in enumerate(zip(ours, golden)):
        ma, mb = dict(a.pop('meta', {})), dict(b.pop('meta', {}))
        ta, tb = ma.pop('time', None), mb.pop('time', None)
        problems = []
        for key, value in list(a.items()):
            if (a['n'], key) in ALLOWED and value == '\ufffd' and key in b:
                b[key] = value
        if list(a.items()) != list(b.items()):
            problems.append(f'fields\n  ours: {json.dumps(a)}\n  gold: {json.dumps(b)}')
        if (ta is None) != (tb is None) or (ta is not None and time_ns(ta) != time_ns(tb)):
            problems.append(f'time ours {ta} gold {tb}')
        if ma != mb:
            problems.append(f'meta ours {ma} gold {mb}')
        if problems:
            bad += 1
            if bad <= 20:
                print(f'event {i} ({b.get("n")}): ' + '; '.join(problems))
    print(f'{len(golden)} events compared, {bad} differ')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
