#!/bin/sh
# The native API in the kernel: a program linked with the library writes
# an event with a u8 field (and one of every other kind) through EHS_EVENT
# twice, the second time from the call site's cache, then through
# ehs_event; perf records all three, and ehsyslog decode prints each as
# the same line, the u8 as a number.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
NATIVE=$top_builddir/tests/cli/kernel_native
[ "${1:-}" = --inside ] || [ -x "$NATIVE" ] || skip "$NATIVE not built"
in_kernel "$0" "$@"

find_perf
"$EHSYSLOG" register --facility user --level info >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 grep -qx Syslog_L4K2 "$TR/user_events_status" ||
	fail "register did not register Syslog_L4K2: $(cat "$T/reg.err")"

# Its pid in $T/pid: the decoded lines carry it.
expect 0 "$PERF" record -q -e user_events:Syslog_L4K2 -o "$T/native.data" -- \
	sh -c 'echo $$ >"$1"; exec "$2"' sh "$T/pid" "$NATIVE"
expect 0 "$EHSYSLOG" decode "$T/native.data"
expect_empty err
pid=$(cat "$T/pid")
line="TIME Syslog:request path=\"/index.html\" status=200 ms=-12 tls=true error=ENOENT(2) [cpu=N pid=$pid tid=$pid level=4 keyword=0x2]"
printf '%s\n' "$line" "$line" "$line" >"$T/want"
# perf's trace clock without wall time: seconds and microseconds.
sed -E 's/^[0-9]+\.[0-9]{6} /TIME /; s/\[cpu=[0-9]+ /[cpu=N /' "$T/out" >"$T/got"
expect_same "decode of the native events" "$T/want" "$T/got"

kill -INT $reg
wait $reg
finish
