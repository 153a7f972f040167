#!/bin/sh
# tests/bench/guest-instructions.sh [SMALL LARGE]: the traced exact
# instruction counts, through the real writer into real user_events
# tracepoints that ftrace has enabled, as lines of scripts/bench's
# facts.csv on stdout.  scripts/bench runs it through scripts/kernel-test
# (where user_events work: the QEMU guest, usually) and appends its
# instructions.* lines to its facts; alone:
#
#   top_srcdir=. top_builddir=. scripts/kernel-test sh tests/bench/guest-instructions.sh
#
# Counted as tests/bench/callgrind-count.sh says (1000 and 11000 calls by
# default), each program enabling its tracepoint before its calls:
# - bench-native-kernel (tests/bench/ideal.c): traced EHS_EMIT against
#   the ideal producer of the same event on its own registration of the
#   same tracepoint, two fields and eight, beyond that program's floor;
#   target: EHS_EMIT at most 15 over the ideal producer.
# - bench-call-kernel -s 100 (tests/bench/bench-call.c): the traced
#   syslog() kinds from the program's call to the writer's writev();
#   ld's --wrap of the writer (traced.mk) adds its own instructions to
#   each call, which are taken out (callgrind's self cost of
#   __wrap_ue_tracepoint_write and __wrap_ue_tracepoint_write_sized).
#   Targets: one %d at most 400
#   past the floor; "%s", ": %m" and bench-call's "%d %d %s" at most 0.60
#   of their counts before the traced path was inlined.  Those formats but "%d %d %s" are
#   made at start-up, in writable memory; the one-%d message from a
#   string literal, as programs have it (a format with a plan), is shown
#   beside, without a target.
# - bench-call-kernel and bench-call -s 100, the stdout kinds: a line
#   written to a standard output that is a log, traced, against the same
#   call without the library.
# Both programs link preload/fd.c, as the library does, and leave room
# above the soft RLIMIT_NOFILE (bench_nofile_room: valgrind shows equal
# soft and hard limits), so that the writer keeps its descriptor beyond
# the limit as in an ordinary process.  Where it put it, natively and
# under callgrind, with the RLIMIT_NOFILE each saw, is printed beside (a
# descriptor below the soft limit costs an fstat() and a guard per
# write: the counts show that check's share).
set -eu
small=${1:-1000} large=${2:-11000}
b=${top_builddir:?}/tests/bench
native=$b/bench-native-kernel call=$b/bench-call-kernel
for p in "$native" "$call"; do
	[ -x "$p" ] || { echo "guest-instructions.sh: $p missing: run make bench" >&2; exit 1; }
done
command -v valgrind >/dev/null ||
	{ echo "guest-instructions.sh: no valgrind: traced counts not measured" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ehs-guest-ir.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/bench/callgrind-count.sh
. "$(dirname "$0")/callgrind-count.sh"
wrap=__wrap_ue_tracepoint_write
fd_check='ue__fd_check|ue__fd_is|fstat'

# writer NAME HOW PROGRAM ARG...: PROGRAM's -w line as a fact, HOW
# natively or under callgrind.
writer() {
	name=$1 how=$2 prog=$3
	shift 3
	vg=
	[ "$how" = natively ] || vg="valgrind -q --tool=callgrind --callgrind-out-file=/dev/null"
	# shellcheck disable=SC2086 # valgrind and its options, or nothing
	$vg "$prog" -w "$@" > /dev/null 2> "$work/w" ||
		{ echo "guest-instructions.sh: $prog $*: failed $how" >&2; cat "$work/w" >&2; exit 1; }
	line=$(grep '^writer: ' "$work/w")
	fd=$(echo "$line" | sed -n 's/.* descriptor \([0-9]*\).*/\1/p')
	echo "instructions.kernel.$name,${fd:-none},descriptor,,,$(basename "$prog") $how: ${line#writer: }"
}
writer native_fd natively "$native" -n 1 emit2
writer native_fd_callgrind "under callgrind" "$native" -n 1 emit2
writer call_fd natively "$call" -s 100 -n 1 traced_one_d
writer call_fd_callgrind "under callgrind" "$call" -s 100 -n 1 traced_one_d

# The native API against the ideal producer.
floor=$(cg_count "$native" empty)
echo "instructions.native.kernel_floor,$floor,instructions per call,,,bench-native-kernel: the loop and an indirect call of an empty function"
for n in 2 8; do
	ideal=$(cg_count "$native" "ideal$n")
	emit=$(cg_count "$native" "emit$n")
	check=$(cg_own "$fd_check")
	echo "instructions.native.ideal$n.traced,$((ideal - floor)),instructions,,,ideal producer of the $n-field event into its enabled tracepoint beyond the floor: whole call $ideal less $floor"
	echo "instructions.native.emit$n.traced,$((emit - floor)),instructions,,,EHS_EMIT of the same event through the real writer beyond the floor: whole call $emit less $floor; the writer's descriptor check (ue__fd_check, ue__fd_is, fstat) $check of it"
	v=MISSED; [ $((emit - ideal)) -le 15 ] && v=met
	echo "instructions.native.emit$n.traced_over_ideal,$((emit - ideal)),instructions,<= 15,$v,traced EHS_EMIT with $n fields less the ideal producer of the same event (real writer and tracepoint: $emit against $ideal per call)"
done

# The traced syslog() kinds.  Before the traced path was inlined (bench-call-traced
# over the writer's double, library 0b7447d): %d %d %s 813, "%s" 531,
# ": %m" 1136 instructions per call.
floor=$(cg_count "$call" empty)
echo "instructions.traced.kernel_floor,$floor,instructions per call,,,bench-call-kernel: the loop and an indirect call of an empty function"
for kb in one_d:traced_one_d: one_d_literal:traced_one_d_literal:- \
	  s:traced_s:531 m:traced_m:1136 d_d_s:kernel_traced:813; do
	k=${kb%%:*} rest=${kb#*:}
	kind=${rest%:*} before=${rest#*:}
	whole=$(cg_count "$call" -s 100 "$kind")
	w=$(cg_own "$wrap")
	check=$(cg_own "$fd_check")
	ir=$((whole - w))
	echo "instructions.traced.$k,$ir,instructions per call,,,bench-call-kernel -s 100 $kind: syslog() to the writer's writev() into an enabled tracepoint: whole call $whole less the --wrap's $w; the writer's descriptor check (ue__fd_check, ue__fd_is, fstat) $check of it"
	if [ -z "$before" ]; then
		v=met; [ $((ir - floor)) -le 400 ] || v=MISSED
		echo "instructions.traced.${k}_over_floor,$((ir - floor)),instructions,<= 400,$v,traced syslog() of a 100-byte message with one %d through the real writer: $ir less the floor's $floor"
	elif [ "$before" = - ]; then
		echo "instructions.traced.${k}_over_floor,$((ir - floor)),instructions,,,the same message from a string literal (a format with a plan): $ir less the floor's $floor"
	else
		v=met; [ $((ir * 10)) -le $((before * 6)) ] || v=MISSED
		echo "instructions.traced.${k}_ratio,$(awk -v n="$ir" -v b="$before" 'BEGIN { printf "%.2f", n / b }'),of the count before,<= 0.60,$v,$kind through the real writer: $ir instructions per call against $before before the traced path was inlined (over the writer's double)"
	fi
done

# The traced stdout kinds: a 100-byte line to a standard output that is
# a log (EHSYSLOG_STDIO=stdout; on /dev/null), in pass-through, with its
# tracepoint (info at facility daemon) enabled: the call and its event,
# against the same call without the library (bench-call).
plain=$b/bench-call
[ -x "$plain" ] || { echo "guest-instructions.sh: $plain missing: run make bench" >&2; exit 1; }
for k in stdout_write stdout_printf; do
	alone=$(cg_count "$plain" -s 100 "$k")
	export EHSYSLOG_STDIO=stdout
	whole=$(cg_count "$call" -s 100 "$k")
	unset EHSYSLOG_STDIO
	w=$(cg_own "$wrap")
	ir=$((whole - w))
	echo "instructions.traced.$k,$ir,instructions per call,,,bench-call-kernel -s 100 $k, standard output a log: ${k#stdout_}() and its line's event through the real writer into an enabled tracepoint: whole call $whole less the --wrap's $w"
	echo "instructions.traced.${k}_event,$((ir - alone)),instructions,,,the same less the call without the library (bench-call $k: $alone): the line's event"
done
