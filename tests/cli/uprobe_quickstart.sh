#!/bin/sh
# What a new user does on this machine's kernel (uprobe events, no
# user_events), with the test's copy of the library standing for the
# installed one: "ehsyslog tail" with no option reads the library's
# probes and prints the event of
# "ehsyslog run -- python3 -c 'import syslog; syslog.syslog(\"hi\")'";
# "tail --json" prints it as on user_events (tests/cli/kernel_tail.sh's
# form: the same keys, level and keyword); and README.md's section
# "Without user_events" (register --uprobes, perf record, decode) runs
# as written and prints what the README shows.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/perf_path.sh"
. "${top_srcdir:-.}/tests/lib/readme_section.sh"
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
# taken over a minute; tail ends at the event.  In a PID namespace of
# its own: it follows every copy of the library the processes it sees
# map, and other suites' programs, which map copies of their own, must
# not be traced by it (the program here maps the installed library,
# which tail follows by its path).  So its instance is named after its
# pid there: the one that has group ehsyslog enabled, which only this
# test may define (installed_library).
tail_for() {
	name=$1
	shift
	unshare --pid --fork --mount-proc "$EHSYSLOG" tail --count 1 --timeout 300 "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	tail_pid=$!
	wait_until 60 enabled_in_any ehsyslog ||
		fail "tail $name did not enable ehsyslog: $(cat "$T/$name.err")"
}
# enabled_in_any GROUP: a tail's instance has GROUP's last level enabled.
enabled_in_any() {
	for inst in "$TR/instances/ehsyslog-tail-"*; do
		[ "$(cat "$inst/events/$1/verbose/enable" 2>/dev/null)" = 1 ] && return 0
	done
	return 1
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

# README.md's "Without user_events", as written: its four commands run
# in order as root in $T, with a sudo that only runs its arguments, and
# ehsyslog and perf the built tool and the real perf; each prints what
# the README shows (decode: but the time, host and pid).
Q=$T/readme
mkdir "$Q" "$T/bin" || exit 99
readme_section "$top_srcdir/README.md" "Without user_events" "$Q" || fail "cannot read README.md"
printf '%s\n' "sudo ehsyslog register --uprobes" \
	"sudo perf record -e 'ehsyslog:*' -- ehsyslog run -- python3 -c '$PROG'" \
	"sudo ehsyslog decode perf.data" "sudo ehsyslog register --uprobes --delete" >"$Q/want"
cat "$Q/cmd.1" "$Q/cmd.2" "$Q/cmd.3" "$Q/cmd.4" >"$Q/got" 2>/dev/null
expect_same "README's commands without user_events" "$Q/want" "$Q/got"
checks=$((checks + 1))
[ "$(cat "$Q/count")" = 4 ] && [ ! -e "$Q/out.2" ] ||
	fail "README without user_events: $(cat "$Q/count") commands, expected 4 (the second shows no output)"
# ehsyslog(1)'s EXAMPLES give the same commands, without sudo.
awk '/^Where the kernel has uprobe events but no user_events/ { on = 1 }
on && /^\.nf$/ { copy = 1; next }
copy && /^\.fi$/ { exit }
copy' "$top_srcdir/man/ehsyslog.1" | sed 's/\\-/-/g; s/\\(aq/'\''/g' >"$Q/man"
sed 's/^sudo //' "$Q/want" >"$Q/want.man"
expect_same "ehsyslog(1) EXAMPLES without user_events" "$Q/want.man" "$Q/man"
if PERF=$(perf_path); then
	printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
	# run adds the library to LD_PRELOAD, after a sanitizer's runtimes.
	printf '#!/bin/sh\nLD_PRELOAD="%s" exec "%s" "$@"\n' "$RUN_PRELOAD" "$EHSYSLOG" >"$T/bin/ehsyslog"
	chmod +x "$T/bin/sudo" "$T/bin/ehsyslog"
	ln -s "$PERF" "$T/bin/perf"
	for n in 1 2 3 4; do
		checks=$((checks + 1))
		(cd "$T" && PATH=$T/bin:$PATH && eval "$(cat "$Q/cmd.$n")") >"$Q/run.$n" 2>"$Q/err.$n" ||
			fail "README: '$(cat "$Q/cmd.$n")' exited $?: $(cat "$Q/err.$n")"
	done
	expect_same "README: $(cat "$Q/cmd.1")" "$Q/out.1" "$Q/run.1"
	expect_same "README: $(cat "$Q/cmd.4")" "$Q/out.4" "$Q/run.4"
	# decode's line: the time (perf's clock), host and pid are this run's.
	mask() { sed -E 's/^[0-9]+\.[0-9]{6} [^ ]+ ([^[]*)\[[0-9]+\]:/TIME HOST \1[PID]:/' "$1"; }
	mask "$Q/out.3" >"$Q/want.3"
	mask "$Q/run.3" >"$Q/got.3"
	expect_same "README: $(cat "$Q/cmd.3")" "$Q/want.3" "$Q/got.3"
	checks=$((checks + 1))
	grep -q "^[0-9.]* $host -c\[[0-9]*\]: user.info hi\$" "$Q/run.3" ||
		fail "decode's line is not this host's: $(cat "$Q/run.3")"
else
	echo "SKIP (sub-check): no working perf: README's commands without user_events not run"
fi
checks=$((checks + 1))
[ -z "$(defined ehsyslog)" ] || fail "left defined: $(defined ehsyslog)"
finish
