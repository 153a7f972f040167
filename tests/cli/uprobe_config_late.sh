#!/bin/sh
# The library's configuration file, which a program's first logging call
# cannot open at RLIMIT_NOFILE 3, is read by a later call once a
# descriptor is free: a program whose section says "disable = yes"
# makes no event, before or after, and one whose file names another
# provider makes its later events under that provider, none before.
# Read through the uprobe transport: a tail of the default provider
# sees nothing of either, a tail of the other provider sees the second
# program's late event first.  5 s.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
in_namespace "$0" "$@"

own_library "$T/libehsyslog.so.0"
# The files are root's and 0644 (the library refuses any other), as
# this test runs as root (in_namespace).
umask 022
printf '[program python3]\ndisable = yes\n' >"$T/disable.conf"
printf '[program python3]\nprovider = Late\n' >"$T/provider.conf"
cat >"$T/prog.py" <<'PY'
import resource, sys, syslog, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (3, hard))
for i in range(5):
    syslog.syslog(syslog.LOG_INFO, "before %d" % i)
resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
time.sleep(0.3)	# past the library's pause between two tries
syslog.syslog(syslog.LOG_INFO, "after")
syslog.syslog(syslog.LOG_ERR, "after, err")
PY

# tail_of NAME LAST OPTION...: a tail into $T/NAME.out, its pid in
# tail_pid, once its instance has the events up to level LAST enabled.
tail_of() {
	name=$1
	last=$2
	shift 2
	"$EHSYSLOG" tail --uprobes="$LIB" --json "$@" >"$T/$name.out" 2>"$T/$name.err" &
	tail_pid=$!
	wait_until 60 enabled_in_tail $tail_pid "$GROUP" "$last" ||
		fail "tail $name did not enable $GROUP: $(cat "$T/$name.err")"
}
# run_prog CONF: the program with that file.
run_prog() {
	EHSYSLOG_CONFIG="$T/$1.conf" LD_PRELOAD=$PRELOAD python3 "$T/prog.py" \
		>"$T/$1.out" 2>"$T/$1.err" || fail "$1: python3 exited $?: $(cat "$T/$1.err")"
}
# One tail at a time: the last one to go removes the events.  The
# default provider's events: none of either program.
tail_of default verbose --timeout 5
run_prog disable
run_prog provider
wait $tail_pid || fail "tail exited $?: $(cat "$T/default.err")"
expect_empty default.out
# The other provider's: the second program's late event first.
tail_of late verbose -P Late --count 1 --timeout 60
run_prog provider
wait $tail_pid || fail "tail -P Late exited $?: $(cat "$T/late.err")"
checks=$((checks + 1))
grep -q '^{"n":"Late:prog.py","message":"after",' "$T/late.out" ||
	fail "the first event is not the late provider's: $(cat "$T/late.out")"
finish
