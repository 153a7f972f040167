#!/bin/sh
# Profilers unwind through an intercepted syslog(): `perf record -g` of a
# program built with -O2 and without frame pointers (tests/e2e/unwind.c:
# main -> log_loop -> syslog in a loop), under LD_PRELOAD, in replace mode
# and in pass-through, with the LOG_INFO tracepoint enabled and cpu-clock
# samples.  In perf script's call chains:
#   - every user_events sample (an info call: the stub jumped to the C
#     wrapper, which wrote the event) shows a syslog function of the
#     library, then log_loop, then main;
#   - the cpu-clock samples taken inside the stub itself (the debug calls'
#     untraced path: the leaf frame is syslog in libehsyslog.so) are
#     enough to mean something, and every one shows log_loop then main:
#     this is what the stubs' CFI gives.
# --call-graph dwarf: fp needs frame pointers in every caller, which
# -O2 programs lack (log_loop keeps a string in rbp), so fp stops at the
# first of them with or without our CFI.  dwarf unwinds with .eh_frame,
# which a stub without CFI does not have an entry in.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
e2e_boot unwind.sh

prog=$e2e/unwind
[ -x "$prog" ] || {
	echo "ERROR: $prog missing: build first"
	exit 99
}
. "$srcdir/tests/lib/perf_path.sh"
PERF=$(perf_path) || PERF=
[ -n "$PERF" ] || {
	echo "SKIP: no working perf"
	exit 77
}
"$PERF" version --build-options | grep -Eq '(libunwind|libdw-dwarf-unwind): +\[ on' || {
	echo "SKIP: $PERF is built without a DWARF unwinder (libunwind or libdw)"
	exit 77
}

# perf can only name a registered tracepoint: register it first.
"$tool" register --facility user --level info >"$work/register.out" 2>"$work/register.err" &
register_pid=$!
i=0
until grep -qx Syslog_L4K2 /sys/kernel/tracing/user_events_status 2>/dev/null; do
	[ $i -lt 600 ] || {
		fail "register did not register Syslog_L4K2: $(cat "$work/register.err")"
		exit 1
	}
	sleep 0.1
	i=$((i + 1))
done

# perf loads the library too: in a sanitizer build, perf's own leaks are
# not ours to report.
no_lsan=
[ "${sanitizers:-no}" = yes ] && no_lsan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# chains FILE: perf script's samples, one a line: the event, then each
# frame as symbol@dso (dso: the file's base name), leaf first.
chains() {
	"$PERF" script -i "$1" -F event,ip,sym,dso 2>"$1.script-err" | awk '
		function flush() { if (ev != "") print ev chain; ev = ""; chain = "" }
		/^[[:space:]]*$/ { flush(); next }
		/^[^[:space:]]/ || $1 ~ /:$/ { flush(); ev = $1; sub(/:$/, "", ev); next }
		{
			# "addr sym+off (dso)"
			sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
			dso = $NF; gsub(/[()]/, "", dso); sub(/.*\//, "", dso)
			chain = chain " " sym "@" dso
		}
		END { flush() }'
}

# check MODE PASSTHROUGH: one recording, its checks.
check() {
	mode=$1
	data=$work/$mode.data
	# 3 s: in pass-through the stub has a few percent of the samples
	# (glibc's syslog has most), and the emulated guest takes a few
	# hundred a second.  A larger buffer (-m): a lost chunk can hold the
	# library's mmap record, and then none of its frames has a name.
	# The preload is perf's own environment, which its child inherits:
	# started as "perf record -- env LD_PRELOAD=... prog", half the
	# recordings had no event unwound past libc's writev (perf 6.1 then
	# found no CFI for libc and fell back to rbp), never without env.
	# shellcheck disable=SC2086 # no_lsan: empty or one word
	if ! env LD_PRELOAD="$lib" EHSYSLOG_PASSTHROUGH="$2" $no_lsan \
		"$PERF" record -m 8M --call-graph dwarf -e user_events:Syslog_L4K2 -e cpu-clock \
		-o "$data" -- "$prog" 3 >"$work/$mode.perf-out" 2>&1; then
		fail "$mode: perf record: $(cat "$work/$mode.perf-out")"
		return
	fi
	chains "$data" >"$work/$mode.chains"
	# What perf lost, for the log.
	grep -ih lost "$work/$mode.perf-out" "$data.script-err" | sed "s/^/NOTE: $mode: /"
	# Each chain's leaf part, up to main: what a failure prints.
	short='s/ main@unwind .*/ main@unwind .../'

	events=$(grep -c '^user_events:Syslog_L4K2 ' "$work/$mode.chains")
	good=$(grep -cE '^user_events:Syslog_L4K2 .* [^ ]*syslog[^ ]*@libehsyslog\.so[.0-9]* log_loop@unwind main@unwind( |$)' \
		"$work/$mode.chains")
	if [ "$events" -gt 0 ] && [ "$good" = "$events" ]; then
		pass "$mode: all $events events' call chains show syslog, log_loop, main"
	else
		fail "$mode: $good of $events events' call chains show syslog, log_loop, main"
		grep '^user_events' "$work/$mode.chains" | sed "$short" | sort | uniq -c | sort -rn | head -5
	fi

	grep -E '^cpu-clock syslog@libehsyslog\.so[.0-9]*( |$)' "$work/$mode.chains" >"$work/$mode.stub"
	samples=$(grep -c '^cpu-clock' "$work/$mode.chains")
	stub=$(wc -l <"$work/$mode.stub")
	good=$(grep -cE '^cpu-clock syslog@libehsyslog\.so[.0-9]* log_loop@unwind main@unwind( |$)' "$work/$mode.stub")
	if [ "$stub" -ge 10 ] && [ "$good" = "$stub" ]; then
		pass "$mode: all $stub cpu-clock samples in the stub (of $samples) unwind to log_loop, main"
	else
		fail "$mode: $good of $stub cpu-clock samples in the stub (of $samples; 10 wanted) unwind to log_loop, main"
		sed "$short" "$work/$mode.stub" | sort | uniq -c | sort -rn | head -5
	fi
}

check replace 0
check pass-through 1

kill -TERM "$register_pid"
wait "$register_pid" || fail "register: $(cat "$work/register.err")"
e2e_finish
