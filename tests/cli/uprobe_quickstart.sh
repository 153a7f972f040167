#!/bin/sh
# What a new user does on this machine's kernel (uprobe events, no
# user_events), with the test's copy of the library standing for the
# installed one: "ehsyslog tail" with no option reads the library's
# probes and prints the event of
# "ehsyslog run -- python3 -c 'import syslog; syslog.syslog(\"hi\")'";
# "tail --json" prints it as on user_events (tests/cli/kernel_tail.sh's
# form: the same keys, level and keyword); and after "register
# --uprobes", "perf record -e 'ehsyslog:*'" of the same command and
# "decode --json perf.data" give the same line.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/perf_path.sh"
in_namespace "$0" "$@"

installed_library "$T/libehsyslog.so.0"
host=$(uname -n)
PROG='import syslog; syslog.syslog("hi")'
# run appends the library to LD_PRELOAD: a sanitizer build's runtimes
# go first.
RUN_PRELOAD=${PRELOAD%"$LIB"}

# tail_for NAME OPTION...: tail in the background until one event,
# returns once its instance has the events enabled.  Its timeout is a
# bound, not a measure: it runs from before the program starts, and a
# program's start in a software-emulated guest on a loaded host has
# taken over a minute; tail ends at the event.
tail_for() {
	name=$1
	shift
	"$EHSYSLOG" tail --count 1 --timeout 300 "$@" >"$T/$name.out" 2>"$T/$name.err" &
	tail_pid=$!
	wait_until 60 enabled_in_tail $tail_pid ehsyslog ||
		fail "tail $name did not enable ehsyslog: $(cat "$T/$name.err")"
}
# run_prog: the command, under ehsyslog run; its pid in $prog (run execs).
run_prog() {
	env LD_PRELOAD="$RUN_PRELOAD" sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/prog.pid" \
		"$EHSYSLOG" run -- python3 -c "$PROG" >"$T/run.out" 2>"$T/run.err" ||
		fail "run exited $?: $(cat "$T/run.err")"
	prog=$(cat "$T/prog.pid")
}
# json_of FILE: its one JSON line, time and cpu masked.
json_of() {
	sed -E 's/"time":"[0-9T:.-]+Z"/"time":"TIME"/; s/"cpu":[0-9]+/"cpu":N/' "$1"
}

tail_for text
run_prog
wait $tail_pid || fail "tail exited $?: $(cat "$T/text.err")"
checks=$((checks + 1))
got=$(sed -E 's/^[0-9T:.+-]+ //' "$T/text.out")
[ "$got" = "$host -c[$prog]: user.info hi" ] || fail "tail printed: $(cat "$T/text.out")"
expect_empty text.err
# run says once where the events go on this kernel.
checks=$((checks + 1))
[ "$(cat "$T/run.err")" = "ehsyslog run: this kernel has no user_events: the library's events go to its USDT probes, which 'ehsyslog tail' reads through uprobe events" ] ||
	fail "run said: $(cat "$T/run.err")"

json_want="{\"n\":\"Syslog:-c\",\"message\":\"hi\",\"severity\":6,\"facility\":1,\"errno\":\"ERRNO(0)\",\"meta\":{\"time\":\"TIME\",\"cpu\":N,\"pid\":PID,\"tid\":PID,\"level\":4,\"keyword\":\"0x2\"}}"
tail_for json --json
run_prog
wait $tail_pid || fail "tail --json exited $?: $(cat "$T/json.err")"
checks=$((checks + 1))
[ "$(json_of "$T/json.out")" = "$(echo "$json_want" | sed "s/PID/$prog/g")" ] ||
	fail "tail --json printed: $(cat "$T/json.out")"
nothing=$(defined ehsyslog)
checks=$((checks + 1))
[ -z "$nothing" ] || fail "the tails left events defined: $nothing"

if PERF=$(perf_path); then
	expect 0 "$EHSYSLOG" register --uprobes
	expect 0 "$PERF" record -q -e 'ehsyslog:*' -o "$T/perf.data" -- sh -c \
		'echo $$ >"$1"; shift; exec "$@"' sh "$T/prog.pid" \
		env LD_PRELOAD="$RUN_PRELOAD" "$EHSYSLOG" run -- python3 -c "$PROG"
	prog=$(cat "$T/prog.pid")
	expect 0 "$EHSYSLOG" decode --json "$T/perf.data"
	checks=$((checks + 1))
	[ "$(json_of "$T/out")" = "$(echo "$json_want" | sed "s/PID/$prog/g")" ] ||
		fail "decode --json perf.data printed: $(json_of "$T/out") for pid $prog"
	expect 0 "$EHSYSLOG" register --uprobes --delete
else
	echo "SKIP (sub-check): no working perf: perf record not checked"
fi
checks=$((checks + 1))
[ -z "$(defined ehsyslog)" ] || fail "left defined: $(defined ehsyslog)"
finish
