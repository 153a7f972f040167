#!/bin/sh
# Pass-through: with the library preloaded and its events traced, a
# program's syslog datagrams on /dev/log (a listener bound there in the
# guest), its stderr (err/warn/error, LOG_PERROR) and its exit statuses
# are exactly what they are without the library; only the timestamp and
# the pid differ between runs and are masked.  Then: not traced, nothing
# written.  With the tracepoints registered but enabled nowhere, the
# program opens user_events_data but never writes to it (strace); with a
# reader enabled, the same count is not zero.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
e2e_boot passthrough.sh --guest-only

# run_all TAG [VAR=VALUE]...: every calls mode of both builds, plus
# python's syslog module; datagrams to $work/TAG.dgrams, stderr and
# exit statuses to $work/TAG.out.
run_all() {
	tag=$1
	shift
	python3 "$srcdir/tests/e2e/devlog.py" /dev/log "$work/$tag.dgrams" &
	listener=$!
	while [ ! -e "$work/$tag.dgrams.ready" ]; do sleep 0.1; done
	for bin in "$e2e/calls_plain" "$e2e/calls_fortify"; do
		for mode in calls err errx verr verrx errc verrc error error_at_line; do
			env "$@" "$bin" $mode >>"$work/$tag.out" 2>&1
			echo "${bin##*/} $mode: exit $?" >>"$work/$tag.out"
		done
	done
	env "$@" python3 -c 'import syslog; syslog.openlog("pytest", syslog.LOG_PID, syslog.LOG_LOCAL3); syslog.syslog(syslog.LOG_WARNING, "from python")' >>"$work/$tag.out" 2>&1
	echo "python: exit $?" >>"$work/$tag.out"
	kill -TERM "$listener"
	wait "$listener" || fail "$tag: the /dev/log listener failed"
}

# What may differ between two runs: "<PRI>Mmm dd hh:mm:ss " and "[pid]:".
mask() {
	python3 -c '
import re, sys
for line in open(sys.argv[1]):
    d = bytes.fromhex(line)
    d = re.sub(rb"^(<[0-9]{1,3}>)[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} ", rb"\1TIME ", d)
    d = re.sub(rb"\[[0-9]+\]:", b"[PID]:", d)
    print(repr(d))' "$1"
}

run_all plain E2E_NONE=1
tail_start "$work/events" 125 || exit 1
run_all preloaded LD_PRELOAD="$lib" E2E_EXPECT="$work/expected"
# python's (its errno at the call is its own business).
expect_line pytest 4 19 '*' '*' "from python" >>"$work/expected"
tail_stop "$work/events" "$(wc -l <"$work/expected")"
# The events are there (the library was really working) ...
compare_events "traced while passing through" "$work/expected" "$work/events"
# ... and nothing else changed.
expect_eq "datagrams received" "$(wc -l <"$work/plain.dgrams")" "$(wc -l <"$work/preloaded.dgrams")"
if mask "$work/plain.dgrams" >"$work/plain.masked" && mask "$work/preloaded.dgrams" >"$work/preloaded.masked" &&
	cmp -s "$work/plain.masked" "$work/preloaded.masked"; then
	pass "/dev/log datagrams identical ($(wc -l <"$work/plain.dgrams") datagrams, timestamp and pid masked)"
else
	fail "/dev/log datagrams differ"
	diff "$work/plain.masked" "$work/preloaded.masked" | head -20
fi
sed -E 's/\[[0-9]+\]/[PID]/' "$work/plain.out" >"$work/plain.out.masked"
sed -E 's/\[[0-9]+\]/[PID]/' "$work/preloaded.out" >"$work/preloaded.out.masked"
if cmp -s "$work/plain.out.masked" "$work/preloaded.out.masked"; then
	pass "stderr and exit statuses identical ($(wc -l <"$work/plain.out") lines)"
else
	fail "stderr or exit statuses differ"
	diff "$work/plain.out.masked" "$work/preloaded.out.masked" | head -20
fi
# The masks must not hide everything: the datagrams carry the messages.
grep -q "$(printf 'percent m: No such file or directory.' | od -An -v -tx1 | tr -d ' \n')" "$work/plain.dgrams" ||
	fail "the datagrams do not hold the messages"

# Not traced: registered (by `ehsyslog register` and by the program
# itself) but enabled nowhere: no write to user_events_data.
# LeakSanitizer stops the world with ptrace, which fails under strace.
no_lsan=
[ "${sanitizers:-no}" = yes ] && no_lsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
writes() {
	grep -E '^[0-9]+ +(write|writev)\([0-9]+</sys/kernel/tracing/user_events_data>' -c "$1"
}
opens() {
	grep -E '^[0-9]+ +openat\(.*user_events_data' -c "$1"
}
register_start
strace -f -y -o "$work/strace.idle" -e trace=openat,write,writev env LD_PRELOAD="$lib" $no_lsan \
	"$e2e/calls_plain" calls >/dev/null 2>&1
expect_eq "not traced: exit status" 0 $?
register_stop
expect_eq "not traced: user_events_data opened" 1 "$(opens "$work/strace.idle")"
expect_eq "not traced: writes to user_events_data" 0 "$(writes "$work/strace.idle")"
tail_start "$work/events2" 5 --facility user || exit 1
strace -f -y -o "$work/strace.traced" -e trace=openat,write,writev env LD_PRELOAD="$lib" $no_lsan \
	"$e2e/calls_plain" simple traced >/dev/null 2>&1
tail_stop "$work/events2" 1
expect_eq "traced: writes to user_events_data" 1 "$(writes "$work/strace.traced")"

e2e_finish
