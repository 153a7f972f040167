#!/bin/sh
# tests/bench/guest-rate.sh REPS MS: run by scripts/bench through
# scripts/kernel-test, where user_events work (the QEMU guest, usually).
# Times the traced syslog path into a real, ftrace-enabled user_events
# tracepoint and a bare writev() of the same bytes to the same tracepoint,
# alternating, REPS times; prints "RAW rep name ns allocs calls" lines in
# scripts/bench's raw.txt form.  A fresh process per run: the library
# registers its tracepoint and the program enables it each time.
set -eu
reps=$1 ms=$2
traced=${top_builddir:?}/tests/bench/bench-call-kernel
r=1
while [ "$r" -le "$reps" ]; do
	for k in kernel_writev kernel_traced; do
		# shellcheck disable=SC2046
		set -- $("$traced" -m "$ms" -s 100 "$k")
		echo "RAW $r guest.$k $1 $2 $3"
	done
	r=$((r + 1))
done
# Evidence that ftrace took the events: what the ring buffers hold plus
# what they overwrote, over every CPU.
stats=/sys/kernel/tracing/per_cpu
echo "RECORDED $(cat "$stats"/cpu*/stats | awk '/^(entries|overrun):/ { n += $2 } END { print n + 0 }')"
