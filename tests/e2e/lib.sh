# shellcheck shell=sh
# Sourced by tests/e2e/*.sh.  Outside the guest, e2e_boot re-runs the
# calling script with E2E_INSIDE=y through scripts/kernel-test (one guest
# boot for all its checks); inside, the helpers below start and stop
# readers and record PASS/FAIL lines.

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-.}
builddir=$(cd "$builddir" && pwd)
lib=$builddir/.libs/libehsyslog.so
tool=$builddir/ehsyslog
# shellcheck disable=SC2034 # used by the scripts that source this
e2e=$builddir/tests/e2e
compare="python3 $srcdir/tests/e2e/compare.py"
failures=0
# The system's programs, not a developer's (pyenv shims and the like).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# e2e_boot SCRIPT [--guest-only] [KERNEL-TEST OPTION]...: unless
# "$E2E_INSIDE" says we are inside, runs SCRIPT inside through
# scripts/kernel-test and exits.  --guest-only: skip where it would run
# natively (the script changes the machine: /dev/log, say).
e2e_boot() {
	if [ "${E2E_INSIDE:-}" = y ]; then
		# shellcheck disable=SC2034 # the scripts' scratch directory
		work=$(mktemp -d /tmp/e2e.XXXXXX) || exit 99
		# Programs that switch to nobody (su, setpriv) load the library
		# too: give them a copy nobody can read, wherever the build tree
		# lies, and make /etc/ld.so.preload name it.
		public=$(mktemp -d /tmp/e2e-public.XXXXXX) || exit 99
		trap 'rm -rf "$work" "$public"' EXIT
		chmod 755 "$public" && cp "$lib" "$public/libehsyslog.so" || exit 99
		if [ "$(cat /etc/ld.so.preload 2>/dev/null)" = "$lib" ]; then
			echo "$public/libehsyslog.so" >/etc/ld.so.preload || exit 99
		fi
		lib=$public/libehsyslog.so
		return 0
	fi
	script=$1
	shift
	if [ "${1:-}" = --guest-only ]; then
		shift
		mode=$("$srcdir/scripts/kernel-test" --mode) || exit 99
		[ "$mode" = native ] && {
			echo "SKIP: $script changes the machine it runs on: only in the test guest"
			exit 77
		}
	fi
	for f in "$lib" "$tool"; do
		[ -e "$f" ] || {
			echo "ERROR: $f missing: build first"
			exit 99
		}
	done
	exec "$srcdir/scripts/kernel-test" --timeout 300 --env E2E_INSIDE=y "$@" \
		sh "$srcdir/tests/e2e/$script"
}

pass() { echo "PASS: $*"; }
fail() {
	failures=$((failures + 1))
	echo "FAIL: $*"
}
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected '$2', got '$3'"; fi
}
# e2e_finish: the script's exit status.
e2e_finish() {
	echo "e2e: $failures failure(s)"
	[ "$failures" = 0 ]
}


# tail_instance PID: sets inst to the tracefs instance of the tail PID
# (ehsyslog-tail-PID-START-NS); 1 if it has none yet.  A shell glob: no
# program runs (see tail_wait).
tail_instance() {
	for inst in /sys/kernel/tracing/instances/ehsyslog-tail-"$1"-*; do
		[ -d "$inst" ]
		return
	done
}

# tail_wait PID TRACEPOINTS: waits until the tail PID enabled all its
# TRACEPOINTS: from then on it misses no event.  Reads set_event with a
# shell redirection: a program complaining about a missing file (cat,
# say) would itself log an event under a system-wide preload.
tail_wait() {
	i=0
	while ! { tail_instance "$1" && [ -f "$inst/set_event" ] &&
		[ "$(wc -l <"$inst/set_event")" = "$2" ]; }; do
		kill -0 "$1" 2>/dev/null && [ $i -lt 600 ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# tail_start OUT TRACEPOINTS [TAIL-OPTION]...: starts `ehsyslog tail --json`
# writing to OUT and waits for it (tail_wait).  Sets tail_pid.
tail_start() {
	out=$1 tps=$2
	shift 2
	"$tool" tail --json "$@" >"$out" 2>"$out.err" &
	tail_pid=$!
	tail_wait "$tail_pid" "$tps" || {
		fail "tail did not start: $(cat "$out.err")"
		return 1
	}
}

# tail_stop OUT COUNT: waits (60 s at most) until tail printed COUNT lines,
# gives it one more second to show any extra event, reports events the
# tracer lost (overrun), then stops it.
tail_stop() {
	out=$1 count=$2
	i=0
	while [ "$(wc -l <"$out")" -lt "$count" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 1
	tail_instance "$tail_pid" || fail "tail $tail_pid has no instance"
	lost=$(cat "$inst"/per_cpu/cpu*/stats |
		sed -n 's/^overrun: //p' | awk '{ s += $1 } END { print s + 0 }')
	[ "$lost" = 0 ] || echo "NOTE: the tracer lost $lost events (overrun)"
	kill -INT "$tail_pid"
	wait "$tail_pid" || fail "tail exited with $?: $(cat "$out.err")"
}

# compare_events WHAT EXPECTED ACTUAL [--provider P]
compare_events() {
	what=$1 exp=$2 act=$3
	shift 3
	if r=$($compare "$@" "$exp" "$act" 2>&1); then
		pass "$what: $r"
	else
		fail "$what"
		printf '%s\n' "$r"
	fi
}

# expect_line IDENT SEV FAC ERRNO PID MESSAGE: one expectation (expect.h
# format, no file) for a program that is not ours; "*" for any value.
expect_line() {
	printf '%s\t%s\t%s\t%s\t-\t0\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$5" \
		"$(printf '%s' "$6" | od -An -v -tx1 | tr -d ' \n')"
}

# register_start: `ehsyslog register --facility all` in the background,
# so that tracers can name every tracepoint; returns once all 125 are
# registered (30 s at most).  register_stop ends it.
register_start() {
	# Made here, not by the background job's redirection, which may not
	# have run yet when the loop first counts its lines.
	: >"$work/register.out"
	"$tool" register --facility all >>"$work/register.out" 2>"$work/register.err" &
	register_pid=$!
	i=0
	while [ "$(wc -l <"$work/register.out")" -lt 125 ]; do
		if [ $i -ge 300 ]; then
			fail "register: $(wc -l <"$work/register.out") of 125 tracepoints after 30 s: $(cat "$work/register.err")"
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

register_stop() {
	kill -TERM "$register_pid"
	wait "$register_pid" || fail "register: $(cat "$work/register.err")"
}
