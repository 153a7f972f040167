#!/bin/sh
# Services' standard output and error as events, under Debian's real
# systemd-journald started here (tests/cli/journal_lib.sh), read back
# through the uprobe transport on this machine's kernel with one tail.
# python3 started as systemd starts a service (tests/cli/journal_launch.py:
# the stream's header, JOURNAL_STREAM, exec) prints buffered and
# unbuffered lines, "<N>" prefixes, a line finished by a later write, two
# lines in one write, a NUL, a line over journald's LineMax, empty lines
# and lines on stderr; the same program without the library must give
# the journal exactly the same entries, and the events must be exactly
# those entries, with the stream each came from.  A C program's stdio
# (printf, fprintf to stderr, puts, fputs, fwrite, putchar, perror,
# fortified and not) the same way.  The same under
# systemd-cat (no JOURNAL_STREAM: found by the socket's peer); a C
# program's two threads and a signal handler writing lines with write();
# EHSYSLOG_STDIO and run --stdio with a pipe (the pipe's bytes unchanged), and the same
# pipe without it (no event: a pipe is not a log unless named).
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/cli/journal_lib.sh"
in_namespace --pid "$0" "$@"
WRITER=$top_builddir/tests/cli/output_writer
STDIO=$top_builddir/tests/cli/output_stdio
for p in "$WRITER" "$STDIO" "${STDIO}_chk"; do
	[ -x "$p" ] || skip "$p not built"
done
start_journald
own_library "$T/libehsyslog.so.0"


"$EHSYSLOG" tail --uprobes="$LIB" --timeout 600 --json >"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" verbose ||
	fail "tail did not enable $GROUP: $(cat "$T/tail.err")"

# The service with the library and without.
LD_PRELOAD=$PRELOAD python3 "$LAUNCH" svc-with demo.service python3 "$SERVICE" py ||
	fail "the service with the library exited $?"
python3 "$LAUNCH" svc-without demo.service python3 "$SERVICE" py ||
	fail "the service without the library exited $?"
# systemd-cat, with the library in the program it starts.
LD_PRELOAD=$PRELOAD systemd-cat -t cat-with python3 "$SERVICE" cat ||
	fail "systemd-cat with the library exited $?"
systemd-cat -t cat-without python3 "$SERVICE" cat ||
	fail "systemd-cat without the library exited $?"
# A C service's stdio, plain and fortified.
for c in output_stdio output_stdio_chk; do
	LD_PRELOAD=$PRELOAD python3 "$LAUNCH" "$c-with" c.service "$top_builddir/tests/cli/$c" "$c" ||
		fail "$c with the library exited $?"
	python3 "$LAUNCH" "$c-without" c.service "$top_builddir/tests/cli/$c" "$c" ||
		fail "$c without the library exited $?"
done
# Threads and a signal handler.
LD_PRELOAD=$PRELOAD python3 "$LAUNCH" writer writer.service "$WRITER" 300 ||
	fail "output_writer exited $?"
# A pipe, named and not.
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=stdout python3 "$SERVICE" pipe 2>"$T/pipe-with.err" |
	cat >"$T/pipe-with.out"
LD_PRELOAD=$PRELOAD python3 "$SERVICE" unnamed 2>"$T/unnamed.err" | cat >"$T/unnamed.out"
# A syslog socket watched before the first write (a UDP socket connected
# to a loopback syslog port): the streams are looked at all the same.
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=stdout python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(("127.0.0.1", 514))
print("printed after a connect", flush=True)' | cat >"$T/connected.out"
python3 "$SERVICE" pipe 2>"$T/pipe-without.err" | cat >"$T/pipe-without.out"
# The file's stdio key: a pipe and a file are captured, /dev/null is
# not (a character device, for which the file is not read).
printf '[program python3]\nstdio = both\n' >"$T/stdio.conf"
chmod 644 "$T/stdio.conf"
LD_PRELOAD=$PRELOAD EHSYSLOG_CONFIG=$T/stdio.conf python3 "$SERVICE" conf 2>"$T/conf.err" |
	cat >"$T/conf.out"
python3 "$SERVICE" conf 2>"$T/conf-without.err" | cat >"$T/conf-without.out"
LD_PRELOAD=$PRELOAD EHSYSLOG_CONFIG=$T/stdio.conf python3 "$SERVICE" devnull >/dev/null \
	2>"$T/devnull.err"
# run --stdio: the same as EHSYSLOG_STDIO (the runtimes of a sanitizer
# build first in LD_PRELOAD, for python3).
LD_PRELOAD=$(sanitizer_runtimes "$LIB") EHSYSLOG_LIBRARY=$LIB \
	"$EHSYSLOG" run --stdio stdout python3 "$SERVICE" run 2>"$T/run.err" | cat >"$T/run.out"
# The last event: once tail printed it, it printed all before it.
LD_PRELOAD=$PRELOAD python3 -c 'import syslog; syslog.openlog("marker"); syslog.syslog("all done")'
wait_until 120 grep -q '"message":"all done"' "$T/tail.out" ||
	fail "tail did not print the marker: $(cat "$T/tail.err")"
kill -INT $tail_pid
wait $tail_pid || fail "tail exited $? after SIGINT: $(cat "$T/tail.err")"
expect_quiet tail.err

for who in svc cat writer output_stdio output_stdio_chk; do
	last="py end"
	[ "$who" = cat ] && last="cat end"
	case $who in output_stdio*) last="$who end" ;; esac
	[ "$who" = writer ] && last="signals: *"
	case $who in
	writer) wait_until 60 sh -c "journalctl -D /run/log/journal --no-pager -o cat SYSLOG_IDENTIFIER=writer | grep -q '^signals: '" ;;
	*) wait_until 60 journal_has "$who-with" "$last" && wait_until 60 journal_has "$who-without" "$last" ;;
	esac || fail "journald did not record $who's last line"
done
stop_journald

# The journal, with the library and without: the same entries.
for who in svc cat; do
	journal_entries "$who-with" >"$T/$who-with.journal"
	journal_entries "$who-without" >"$T/$who-without.journal"
	expect_same "$who: the journal's entries with the library and without" \
		"$T/$who-without.journal" "$T/$who-with.journal"
done
service_entries py >"$T/svc.want"
expect_same "the journal's entries of the service" "$T/svc.want" "$T/svc-with.journal"

# The events: the journal's entries, from the library's copy of them.
event_lines "$T/tail.out" python3 | grep "	'py\|	'<9>py" >"$T/svc.events"
expect_same "the service's events are the journal's entries" "$T/svc-with.journal" "$T/svc.events"
event_lines "$T/tail.out" python3 stderr | grep "	'py" >"$T/svc.stderr"
printf '4\t%s\n' "'py on stderr'" >"$T/svc.stderr.want"
expect_same "the service's stderr events" "$T/svc.stderr.want" "$T/svc.stderr"
event_lines "$T/tail.out" python3 | grep "	'cat\|	'<9>cat" >"$T/cat.events"
expect_same "systemd-cat's events are the journal's entries" "$T/cat-with.journal" "$T/cat.events"

# The C services: the same entries with the library and without, and
# the events are those entries (in the order of the calls: journald gets
# standard output's when stdio flushes its buffer, standard error's at
# once).
for c in output_stdio output_stdio_chk; do
	journal_entries "$c-with" | sort >"$T/$c-with.journal"
	journal_entries "$c-without" | sort >"$T/$c-without.journal"
	expect_same "$c: the journal's entries with the library and without" \
		"$T/$c-without.journal" "$T/$c-with.journal"
	event_lines "$T/tail.out" "$c" | sort >"$T/$c.events"
	expect_same "$c's events are the journal's entries" "$T/$c-with.journal" "$T/$c.events"
	checks=$((checks + 1))
	[ "$(wc -l <"$T/$c.events")" = 14 ] || fail "$c: not 14 events: $(cat "$T/$c.events")"
	event_lines "$T/tail.out" "$c" stderr >"$T/$c.stderr"
	printf '%s\n' "3	'$c fprintf to stderr'" "6	'$c: No such file or directory'" >"$T/$c.stderr.want"
	expect_same "$c's stderr events, in order" "$T/$c.stderr.want" "$T/$c.stderr"
done

# Two threads and a signal handler: every line once, as journald got it.
journal_entries writer | sort >"$T/writer.journal"
event_lines "$T/tail.out" output_writer | sort >"$T/writer.events"
expect_same "output_writer's events are the journal's entries" "$T/writer.journal" "$T/writer.events"
checks=$((checks + 1))
[ "$(grep -c "'thread [AB] [0-9]* of 300'" "$T/writer.journal")" = 600 ] ||
	fail "the journal has not all 600 threads' lines: $(grep -c thread "$T/writer.journal")"
k=$(sed -n "s/^5	'signals: \([0-9]*\)'$/\1/p" "$T/writer.journal")
checks=$((checks + 1))
[ -n "$k" ] && [ "$(grep -c "^6	'signal [0-9]*'$" "$T/writer.journal")" = "$k" ] ||
	fail "the journal has not the $k signal handler's lines"

# The pipe: named, its lines are events and its bytes what they were;
# not named, no event.
expect_same "the named pipe's bytes" "$T/pipe-without.out" "$T/pipe-with.out"
expect_same "the named pipe's stderr" "$T/pipe-without.err" "$T/pipe-with.err"
service_entries pipe stdout >"$T/pipe.want"
event_lines "$T/tail.out" python3 stdout | grep "	'pipe\|	'<9>pipe" >"$T/pipe.events"
expect_same "the named pipe's events" "$T/pipe.want" "$T/pipe.events"
service_entries run stdout >"$T/run.want"
event_lines "$T/tail.out" python3 stdout | grep "	'run\|	'<9>run" >"$T/run.events"
expect_same "run --stdio's events" "$T/run.want" "$T/run.events"
service_entries conf >"$T/conf.want"
event_lines "$T/tail.out" python3 | grep "	'conf\|	'<9>conf" >"$T/conf.events"
expect_same "the stdio key's events" "$T/conf.want" "$T/conf.events"
expect_same "the stdio key's pipe bytes" "$T/conf-without.out" "$T/conf.out"
expect_same "the stdio key's stderr bytes" "$T/conf-without.err" "$T/conf.err"
printf '4\t%s\n' "'devnull on stderr'" >"$T/devnull.want"
event_lines "$T/tail.out" python3 | grep "devnull" >"$T/devnull.events"
expect_same "the stdio key: a file's events, not /dev/null's" "$T/devnull.want" "$T/devnull.events"
printf '6\t%s\n' "'printed after a connect'" >"$T/connected.want"
event_lines "$T/tail.out" python3 stdout | grep "after a connect" >"$T/connected.events"
expect_same "a line printed after a syslog socket was watched" "$T/connected.want" \
	"$T/connected.events"
checks=$((checks + 1))
! grep -q "unnamed" "$T/tail.out" || fail "a pipe not named made events: $(grep unnamed "$T/tail.out")"
checks=$((checks + 1))
grep -q "^unnamed end$" "$T/unnamed.out" || fail "the unnamed pipe's output: $(cat "$T/unnamed.out")"
finish
