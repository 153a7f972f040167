#!/bin/sh
# Standard output and error as events through user_events (one guest
# boot): a python3 service's lines (tests/cli/journal_service.py) into
# pipes that EHSYSLOG_STDIO names, which must be the events of the
# entries journald makes of the same lines (journal_lib.sh's
# service_entries, checked against Debian's real journald on the host by
# uprobe_journal_stream.sh; journald itself cannot run in the guest,
# whose kernel has no cgroups), each with its stream, the pipes' bytes
# unchanged; the same in replace mode, where only the writes that are
# not whole lines after whole lines reach the pipes; a C program's two
# threads and signal handler writing lines with write(), each line an
# event once; a C program's stdio, in both modes; a daemon syslog()
# after a watched stream's line still goes on to glibc in pass-through.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
. "${top_srcdir:-.}/tests/cli/journal_lib.sh"
WRITER=$top_builddir/tests/cli/output_writer
[ -x "$WRITER" ] || skip "$WRITER not built"
in_kernel "$0" "$@"
# python3 has no sanitizer runtime: in a sanitizer build, the runtimes first.
PRELOAD=$(sanitizer_runtimes "$BUILT_LIBRARY")$BUILT_LIBRARY
[ "${sanitizers:-no}" != yes ] || export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"

start_tail all Syslog_L5K800000 --json
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=both python3 "$SERVICE" pipe 2>"$T/pipe-with.err" |
	cat >"$T/pipe-with.out"
python3 "$SERVICE" pipe 2>"$T/pipe-without.err" | cat >"$T/pipe-without.out"
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=both EHSYSLOG_PASSTHROUGH=no python3 "$SERVICE" replace \
	2>"$T/replace.err" | cat >"$T/replace.out"
# Replace mode's answers: a whole line's count; a pointer the kernel
# refuses gets its EFAULT, with and without the library.
bad_write='
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.write.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
line = b"replace answered\n"
r = libc.write(1, line, len(line))
sys.stderr.write("whole line: %d\n" % r)
r = libc.write(1, 8, 10)
sys.stderr.write("bad pointer: %d %s\n" % (r, os.strerror(ctypes.get_errno())))'
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=stdout EHSYSLOG_PASSTHROUGH=no python3 -c "$bad_write" \
	2>"$T/answers.with" | cat >"$T/answers.with.out"
python3 -c "$bad_write" 2>"$T/answers.without" | cat >"$T/answers.without.out"
LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=stdout,stderr "$WRITER" 200 >"$T/writer.out" 2>"$T/writer.err" ||
	fail "output_writer exited $?"
# A C program's stdio (tests/cli/output_stdio.c) into pipes, plain and
# fortified: pass-through, and replace mode under another name (a link),
# so that its events are told apart.
for c in output_stdio output_stdio_chk; do
	ln -s "$top_builddir/tests/cli/$c" "$T/$c-replace" || fail "ln: $?"
	LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=both "$top_builddir/tests/cli/$c" T "$T/$c.pass.answers" \
		2>"$T/$c.pass.err" | cat >"$T/$c.pass.out"
	"$top_builddir/tests/cli/$c" T "$T/$c.without.answers" 2>"$T/$c.without.err" |
		cat >"$T/$c.without.out"
	LD_PRELOAD=$PRELOAD EHSYSLOG_STDIO=both EHSYSLOG_PASSTHROUGH=no "$T/$c-replace" T \
		"$T/$c.replace.answers" 2>"$T/$c.replace.err" | cat >"$T/$c.replace.out"
done
LD_PRELOAD=$PRELOAD python3 -c 'import syslog; syslog.openlog("marker"); syslog.syslog("all done")'
wait_until 120 grep -q '"message":"all done"' "$T/all.out" ||
	fail "tail did not print the marker: $(cat "$T/all.err")"
stop_tail all

service_entries pipe >"$T/pipe.want"
event_lines "$T/all.out" python3 | grep "	'pipe\|	'<9>pipe" >"$T/pipe.events"
expect_same "the service's events are journald's entries of its lines" "$T/pipe.want" "$T/pipe.events"
event_lines "$T/all.out" python3 stderr | grep "	'pipe" >"$T/stderr.events"
printf '4\t%s\n' "'pipe on stderr'" >"$T/stderr.want"
expect_same "the stderr events" "$T/stderr.want" "$T/stderr.events"
expect_same "the pipe's bytes" "$T/pipe-without.out" "$T/pipe-with.out"
expect_same "the stderr pipe's bytes" "$T/pipe-without.err" "$T/pipe-with.err"
# Replace mode: the same events; only the line written in two calls, the
# one over LineMax (one write longer than a line's most) and the last,
# unfinished, passed on.
service_entries replace >"$T/replace.want"
event_lines "$T/all.out" python3 >"$T/replace.events.all"
grep "	'replace\|	'<9>replace" "$T/replace.events.all" | grep -v "replace answered" >"$T/replace.events"
expect_same "replace mode's events" "$T/replace.want" "$T/replace.events"
python3 -c '
import sys
head = "replace long "
sys.stdout.write("replace started here, finished later\n" + head + "x" * (49152 - len(head)) +
                 "replace past LineMax\nreplace end")' >"$T/replace.out.want"
expect_same "replace mode: what reached the pipe" "$T/replace.out.want" "$T/replace.out"
expect_empty replace.err
expect_same "replace mode: the calls' answers" "$T/answers.without" "$T/answers.with"
printf 'replace answered\n' >"$T/answers.without.want"
expect_same "without the library, the line reaches the pipe" "$T/answers.without.want" \
	"$T/answers.without.out"
expect_empty answers.with.out
checks=$((checks + 1))
grep -q "^6	'replace answered'$" "$T/replace.events.all" ||
	fail "replace mode: no event of the answered line"
# The events' own fields: the first four, then the stream.
checks=$((checks + 1))
grep -q '^{"n":"Syslog:python3","message":"pipe an error","severity":3,"facility":3,"errno":"ERRNO(0)","stream":"stdout","meta":{"time":"[^"]*","cpu":[0-9]*,"pid":[0-9]*,"tid":[0-9]*,"level":2,"keyword":"0x8"}}$' "$T/all.out" ||
	fail "the event of '<3>pipe an error': $(grep 'pipe an error' "$T/all.out")"

# The threads and the handler: the events are the lines written.
{
	sed "s/.*/6	'&'/" "$T/writer.out"
	sed -n "s/^signal .*/6	'&'/p; s/^<5>\(signals: .*\)/5	'\1'/p" "$T/writer.err"
} | sort >"$T/writer.want"
event_lines "$T/all.out" output_writer | sort >"$T/writer.events"
expect_same "output_writer's events are its lines" "$T/writer.want" "$T/writer.events"
checks=$((checks + 1))
[ "$(grep -c "'thread [AB] [0-9]* of 200'" "$T/writer.events")" = 400 ] ||
	fail "not all 400 threads' lines: $(grep -c thread "$T/writer.events")"

# stdio: pass-through leaves the pipes' bytes as they are without the
# library; replace mode makes the same events, answers each call as it
# is answered without, and passes on only the calls that are not whole
# lines after whole lines: a line in two calls, a character at a time,
# one longer than a scratch slot.
for c in output_stdio output_stdio_chk; do
	expect_same "$c: standard output's bytes" "$T/$c.without.out" "$T/$c.pass.out"
	expect_same "$c: standard error's bytes" "$T/$c.without.err" "$T/$c.pass.err"
	expect_same "$c: the calls' answers" "$T/$c.without.answers" "$T/$c.pass.answers"
	expect_same "$c: the calls' answers in replace mode" "$T/$c.without.answers" \
		"$T/$c.replace.answers"
	event_lines "$T/all.out" "$c" >"$T/$c.pass.events"
	event_lines "$T/all.out" "$c-replace" >"$T/$c.replace.events"
	checks=$((checks + 1))
	[ "$(wc -l <"$T/$c.pass.events")" = 14 ] || fail "$c: not 14 events: $(cat "$T/$c.pass.events")"
	expect_same "$c: replace mode's events" "$T/$c.pass.events" "$T/$c.replace.events"
	python3 -c '
import sys
sys.stdout.write("T fputs, then more\nT fwrite\nT\nT unlocked\n<4>T long " + "y" * 50000 + "\n")' \
		>"$T/$c.replace.out.want"
	expect_same "$c: what replace mode passed on" "$T/$c.replace.out.want" "$T/$c.replace.out"
	expect_empty "$c.replace.err"
done
no_leftovers "after the tail"

# Pass-through, nobody tracing: a daemon syslog() after a line on a
# watched stream, which registered facility daemon's priority bytes
# before any syslog() call routed the stubs, still reaches glibc (its
# LOG_PERROR copy on stderr), with the library as without.
LOGCALLS=$top_builddir/tests/preload/logcalls
EHSYSLOG_STDIO=stdout LD_PRELOAD=$BUILT_LIBRARY "$LOGCALLS" output-then-daemon \
	>"$T/daemon.with.out" 2>"$T/daemon.with"
"$LOGCALLS" output-then-daemon >"$T/daemon.without.out" 2>"$T/daemon.without"
expect_same "a daemon syslog() after a watched stream's line" "$T/daemon.without" "$T/daemon.with"
finish
