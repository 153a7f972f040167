#!/bin/sh
# The facility an event carries is the one syslogd receives: for every
# combination of openlog's facility (none, LOG_LOCAL3, then 0 = LOG_KERN,
# a value glibc rejects, LOG_DAEMON after closelog) and the priority's own
# (none, LOG_MAIL, LOG_KERN = 0), python3's syslog module (libc's
# openlog/syslog) logs once under the preload while a listener on
# /dev/log records the datagrams and `ehsyslog tail` the events.  Each
# message's event must carry the facility and severity of its datagram's
# <PRI>.  The guest's glibc is the host's.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
e2e_boot facility.sh --guest-only

python3 "$srcdir/tests/e2e/devlog.py" /dev/log "$work/dgrams" &
listener=$!
while [ ! -e "$work/dgrams.ready" ]; do sleep 0.1; done
tail_start "$work/events" 125 || exit 1
LD_PRELOAD=$lib python3 -c '
import syslog as s
n = 0
def each(step):
    global n
    for pri in (s.LOG_ALERT, s.LOG_MAIL | s.LOG_WARNING, s.LOG_KERN | s.LOG_INFO):
        n += 1
        s.syslog(pri, "m%d %s" % (n, step))
each("default")
s.openlog("fac", 0, s.LOG_LOCAL3)
each("local3")
s.openlog("fac", s.LOG_PID, 0)
each("kern")
s.openlog("fac", 0, s.LOG_LOCAL5)
s.openlog("fac", 0, 0x1234)
each("rejected")
s.openlog("fac", 0, s.LOG_DAEMON)
s.closelog()
each("closed")
'
expect_eq "python3: exit status" 0 $?
tail_stop "$work/events" 15
kill -TERM "$listener"
wait "$listener" || fail "the /dev/log listener failed"
if r=$(python3 - "$work/dgrams" "$work/events" <<'PY'
import json, re, sys
sent = {}
for line in open(sys.argv[1]):
    m = re.match(rb"<(\d+)>.*?(m\d+ \w+)$", bytes.fromhex(line.strip()))
    if m:
        sent[m.group(2).decode()] = (int(m.group(1)) >> 3, int(m.group(1)) & 7)
got = {}
for line in open(sys.argv[2]):
    e = json.loads(line)
    if re.match(r"m\d+ \w+$", e.get("message", "")):
        got[e["message"]] = (e["facility"], e["severity"])
bad = [f"{k}: datagram {v}, event {got.get(k)}" for k, v in sorted(sent.items()) if got.get(k) != v]
if len(sent) != 15 or len(got) != 15 or bad:
    print(f"{len(sent)} datagrams, {len(got)} events; " + "; ".join(bad))
    sys.exit(1)
print("15 messages: facility and severity as in each datagram")
PY
); then
	pass "$r"
else
	fail "$r"
fi
e2e_finish
