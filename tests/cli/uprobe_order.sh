#!/bin/sh
# ehsyslog tail prints a program's events in the order it logged them
# while the logging thread moves from CPU to CPU, on this machine's
# kernel through the uprobe transport: each CPU has its own trace buffer,
# and a read pass that empties them one after the other finds, in the
# buffer it reads last, records logged after some of those the next pass
# reads from the others.  Every message once, in order, none lost.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/kernel_logger.sh"
in_namespace "$0" "$@"
[ "$(nproc)" -ge 2 ] || skip "one CPU here: its records have one buffer, in order"

own_library "$T/libehsyslog.so.0"
COUNT=10000
# 5,000 a second, 2 s of load and some twenty read passes; a sanitizer
# build reads slower, and its buffer would not hold that: a quarter.
RATE=5000
[ "${sanitizers:-no}" != yes ] || RATE=1250

"$EHSYSLOG" tail --uprobes="$LIB" --timeout 120 --count "$COUNT" --json \
	>"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" info ||
	fail "tail did not enable $GROUP: $(cat "$T/tail.err")"
logs -r $RATE -m order 3 6 $COUNT "order"
trc=0
wait $tail_pid || trc=$?
checks=$((checks + 1))
[ "$trc" = 0 ] || fail "tail exited $trc: $(cat "$T/tail.err")"

seq $COUNT >"$T/order.want"
sed -n 's/.*"message":"order \([0-9]*\)".*/\1/p' "$T/tail.out" >"$T/order.got"
checks=$((checks + 1))
cmp -s "$T/order.want" "$T/order.got" ||
	fail "the messages are not order 1 to order $COUNT once each in order: $(wc -l <"$T/order.got") came; first difference: $(diff "$T/order.want" "$T/order.got" | head -n 5 | tr '\n' ' ')"
# They came from both CPUs, or the test showed nothing.
checks=$((checks + 1))
[ "$(sed -n 's/.*"cpu":\([0-9]*\).*/\1/p' "$T/tail.out" | sort -u | wc -l)" -ge 2 ] ||
	fail "every record came from one CPU: $(head -n 1 "$T/tail.out")"
finish
