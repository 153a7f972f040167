#!/bin/sh
# Programs that talk to the syslog daemon's or journald's socket
# themselves, under the preload, in the test guest: util-linux logger
# (/dev/log, RFC 5424 with MSGID and structured data, UDP and TCP to
# 127.0.0.1 with both TCP framings), Python's SysLogHandler (/dev/log,
# UDP), Perl's Sys::Syslog on its own unix socket, and tests/e2e/clients.c
# (journald's native protocol with sendmsg, sendmmsg, writev, write and
# send), each run by tests/e2e/clients_run.sh; tests/e2e/clients_calls.c:
# sd_journal_print, g_log with GLib's journald writer and syslog(), whose
# own datagrams must not make a second event.  A listener
# (tests/e2e/clients_listen.py) is bound on /dev/log,
# /run/systemd/journal/socket, UDP 127.0.0.1:514 and TCP 127.0.0.1:514
# and :601; no daemon runs in the guest.
#
# tests/e2e/clients_check.py holds what each client must send and the
# events it must make.  Asserted:
#   - without the library, what the listener receives is exactly what
#     the clients send (the templates hold: they are right);
#   - pass-through (the default): the listener receives the same bytes
#     under the library (timestamps and the hostname are the only
#     wildcards, pids are the clients' own), every client exits 0, and
#     every datagram is exactly one event of its client's pid with the
#     right name, message, severity, facility and extra fields (RFC 5424
#     MSGID and structured data, journald's fields), nothing more: as
#     `ehsyslog tail --json` prints them, as `ehsyslog tail` prints them
#     as text, as an independent decoder reads them from a tracefs
#     instance, and as `ehsyslog decode --json` reads trace-cmd's
#     trace.dat;
#   - replace mode (EHSYSLOG_PASSTHROUGH=no): the listener receives
#     nothing but GLib's own journald datagram, every client exits 0,
#     and the same events appear, in tail --json and in
#     `ehsyslog decode --json` of a perf record of the run;
#   - the daemon's socket reached by other names (/dev/log a link to
#     /run/systemd/journal/dev-log, that path itself, /var/run/log): the
#     same bytes and events.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
if [ "${E2E_INSIDE:-}" != y ]; then
	# The guest runs the host's programs: what is missing here is
	# missing there.
	for p in "$e2e/clients" "$e2e/clients_calls"; do
		[ -x "$p" ] || {
			echo "SKIP: $p not built (make check builds it)"
			exit 77
		}
	done
	for p in logger perl python3 trace-cmd; do
		command -v $p >/dev/null || {
			echo "SKIP: no $p on this machine (scripts/setup installs it)"
			exit 77
		}
	done
	perl -MSys::Syslog -e 1 2>/dev/null || {
		echo "SKIP: perl has no Sys::Syslog (Debian: libperl5.*, with perl)"
		exit 77
	}
fi
# Three runs of thirteen clients and one of three; Python and Perl take
# seconds each to start in the guest: more than e2e_boot's 300 s.
e2e_boot clients.sh --guest-only --timeout 900
check="python3 $srcdir/tests/e2e/clients_check.py"
mkdir -p /run/systemd/journal || exit 99

# listen TAG [NAME=ADDRESS]...: the listener on these sockets (default:
# every one), records to $work/TAG.dgrams; the loopback interface up (the
# guest's init leaves it down).
listen() {
	l=$1
	shift
	[ $# -gt 0 ] || set -- devlog=/dev/log journal=/run/systemd/journal/socket \
		udp514=127.0.0.1:514 tcp514=127.0.0.1:514 tcp601=127.0.0.1:601
	python3 "$srcdir/tests/e2e/clients_listen.py" --lo-up "$work/$l.dgrams" "$@" \
		2>"$work/$l.listen.err" &
	listener=$!
	while [ ! -e "$work/$l.dgrams.ready" ]; do
		kill -0 "$listener" 2>/dev/null || {
			fail "$l: the listener did not start: $(cat "$work/$l.listen.err")"
			return 1
		}
		sleep 0.1
	done
}

# unlisten TAG: stops it once it has read what is queued.
unlisten() {
	kill -TERM "$listener"
	wait "$listener" || fail "$1: the listener failed: $(cat "$work/$1.listen.err")"
}

# run TAG [VAR=VALUE]...: every client once under the listener, their
# pids and exit statuses to $work/TAG.runs.
run() {
	tag=$1
	shift
	listen "$tag" || return 1
	$recorder sh "$srcdir/tests/e2e/clients_run.sh" all "$e2e" "$work/$tag.runs" "$@"
	unlisten "$tag"
}
recorder=

# statuses TAG [COUNT]: every client (COUNT of them, 13 by default)
# exited 0.
statuses() {
	bad=$(awk '$3 != 0' "$work/$1.runs")
	if [ -z "$bad" ] && [ "$(wc -l <"$work/$1.runs")" -ge "${2:-13}" ]; then
		pass "$1: $(wc -l <"$work/$1.runs") clients, every exit status 0"
	else
		fail "$1: exit statuses (name pid status): $bad; their output:"
		sed 's/^/  | /' "$work/$1.runs.out"
	fi
}

# checked WHAT MODE RUNS FILE: clients_check.py's verdict as PASS or FAIL.
checked() {
	if r=$($check "$2" "$3" "$4" 2>&1); then pass "$1: $r"; else
		fail "$1"
		printf '%s\n' "$r"
	fi
}

# stop TAIL-PID OUT COUNT: waits (5 s at most: the clients wrote their
# events before they exited) until tail printed COUNT lines, one more
# second for any extra event, then stops it.
stop() {
	i=0
	while [ "$(wc -l <"$2")" -lt "$3" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	kill -INT "$1"
	wait "$1" || fail "tail $1 exited with $?: $(cat "$2.err")"
}

# The reference: no library.  The templates are checked against the
# clients themselves, so that a wrong template cannot pass below.
run plain E2E_NONE=1
statuses plain
checked "without the library, the listener's bytes" datagrams "$work/plain.runs" "$work/plain.dgrams"

# Pass-through, read four ways at once.
tail_start "$work/events" 125 || exit 1
json_tail=$tail_pid
"$tool" tail >"$work/text" 2>"$work/text.err" &
text_tail=$!
tail_wait "$text_tail" 125 || fail "text tail did not start: $(cat "$work/text.err")"
# The independent reader's own instance, every user_events tracepoint
# (the tails registered ours) enabled.
raw=/sys/kernel/tracing/instances/e2e-clients-raw
{ mkdir "$raw" && echo 1 >"$raw/events/user_events/enable"; } || fail "no raw instance"
listen preloaded || exit 1
trace-cmd record -q -o "$work/trace.dat" -e user_events \
	sh "$srcdir/tests/e2e/clients_run.sh" all "$e2e" "$work/preloaded.runs" LD_PRELOAD="$lib" \
	>"$work/record.out" 2>&1
status=$?
expect_eq "trace-cmd record: exit status" 0 $status
[ $status -eq 0 ] || sed 's/^/  | /' "$work/record.out"
unlisten preloaded
statuses preloaded
checked "pass-through: the listener's bytes" datagrams "$work/preloaded.runs" "$work/preloaded.dgrams"
count=$($check count "$work/preloaded.runs" -)
echo 0 >"$raw/events/user_events/enable"
checked "pass-through: trace_pipe_raw, independent decoder" raw "$work/preloaded.runs" "$raw"
rmdir "$raw"
stop "$json_tail" "$work/events" "$count"
stop "$text_tail" "$work/text" "$count"
checked "pass-through: tail --json" json "$work/preloaded.runs" "$work/events"
checked "pass-through: tail" text "$work/preloaded.runs" "$work/text"
"$tool" decode --json "$work/trace.dat" >"$work/decoded" 2>"$work/decode.err"
expect_eq "decode: exit status" 0 $?
expect_eq "decode: stderr" "" "$(cat "$work/decode.err")"
checked "pass-through: decode --json of trace.dat" json "$work/preloaded.runs" "$work/decoded"

# Replace mode: nothing reaches the listener but GLib's own journald
# datagram (GLib's calls always reach GLib, whose writer is its output,
# as stderr is), every call still succeeds, the same events.
# perf records this run: its perf.data decoded below.
tail_start "$work/events.replace" 125 || exit 1
. "$srcdir/tests/lib/perf_path.sh"
perf=$(perf_path) || fail "no working perf"
recorder="$perf record -q -o $work/perf.data -e user_events:* --"
run replace LD_PRELOAD="$lib" EHSYSLOG_PASSTHROUGH=no
recorder=
statuses replace
glib_dgram=$(printf 'GLIB_OLD_LOG_API=1\nMESSAGE=one glib call\nPRIORITY=4\nGLIB_DOMAIN=clientsdom\n' |
	od -An -v -tx1 | tr -d ' \n')
grep -v -x "journal $glib_dgram" "$work/replace.dgrams" >"$work/replace.others"
if [ -s "$work/replace.others" ]; then
	fail "replace mode: the listener received $(wc -l <"$work/replace.others") datagrams or streams:"
	python3 -c 'import sys
for line in open(sys.argv[1]):
    sock, data = line.split()
    print("  |", sock, repr(bytes.fromhex(data))[:150])' "$work/replace.others"
else
	expect_eq "replace mode: the listener received GLib's datagram alone" 1 \
		"$(wc -l <"$work/replace.dgrams")"
fi
stop "$tail_pid" "$work/events.replace" "$count"
checked "replace mode: tail --json" json "$work/replace.runs" "$work/events.replace"
"$tool" decode --json "$work/perf.data" >"$work/perf.decoded" 2>"$work/perf.err"
expect_eq "decode perf.data: exit status" 0 $?
expect_eq "decode perf.data: stderr" "" "$(cat "$work/perf.err")"
checked "replace mode: decode --json of perf.data" json "$work/replace.runs" "$work/perf.decoded"

# The daemon's socket by other names: /dev/log a link to it (systemd's
# layout), its own name, and the BSD one, /var/run/log.
rm -f /dev/log && ln -s /run/systemd/journal/dev-log /dev/log || exit 99
tail_start "$work/events.paths" 125 || exit 1
listen paths devlog=/run/systemd/journal/dev-log devlog=/var/run/log || exit 1
sh "$srcdir/tests/e2e/clients_run.sh" paths "$e2e" "$work/paths.runs" LD_PRELOAD="$lib"
unlisten paths
rm -f /dev/log
statuses paths 3
checked "other socket names: the listener's bytes" datagrams "$work/paths.runs" "$work/paths.dgrams"
stop "$tail_pid" "$work/events.paths" "$($check count "$work/paths.runs" -)"
checked "other socket names: tail --json" json "$work/paths.runs" "$work/events.paths"

e2e_finish
