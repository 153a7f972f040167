#!/bin/sh
# The native API in the kernel: a program linked with the library writes
# an event with a u8 field (and one of every other kind) through EHS_EVENT
# twice, the second time from the call site's cache, then through
# ehs_event, then three times through EHS_EMIT (the third through the
# site's copy of the writer's channel), then from the same call sites
# after openlog(LOG_LOCAL0) and at LOG_LOCAL1 | LOG_WARNING, and through
# an EHS_EMIT site at LOG_WARNING whose tracepoint is untraced before
# openlog (Syslog_L3K2, not recorded) and traced after (Syslog_L3K10000);
# perf records the thirteen, and ehsyslog decode prints the same line for
# each, the u8 as a number, each on the tracepoint of its own priority.
# Calls at LOG_DEBUG, which nobody traces, return 0 (the program checks)
# and write nothing.  The same again from kernel_native_cxx, the calls
# written in C++ (when configure found a C++ compiler).
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
NATIVE=$top_builddir/tests/cli/kernel_native
NATIVE_CXX=$top_builddir/tests/cli/kernel_native_cxx
[ "${1:-}" = --inside ] || [ -x "$NATIVE" ] || skip "$NATIVE not built"
in_kernel "$0" "$@"

find_perf
"$EHSYSLOG" register --facility user,local0,local1 --level info,warning \
	>"$T/reg.out" 2>"$T/reg.err" &
reg=$!
for tp in Syslog_L4K2 Syslog_L4K10000 Syslog_L3K10000 Syslog_L3K20000; do
	wait_until 60 grep -qx $tp "$TR/user_events_status" ||
		fail "register did not register $tp: $(cat "$T/reg.err")"
done

# native PROGRAM: its events recorded and decoded.  Its pid in $T/pid:
# the decoded lines carry it.
native() {
	name=$(basename "$1")
	expect 0 "$PERF" record -q -e user_events:Syslog_L4K2 -e user_events:Syslog_L4K10000 \
		-e user_events:Syslog_L3K10000 -e user_events:Syslog_L3K20000 \
		-o "$T/$name.data" -- sh -c 'echo $$ >"$1"; exec "$2"' sh "$T/pid" "$1"
	expect 0 "$EHSYSLOG" decode "$T/$name.data"
	expect_empty err
	pid=$(cat "$T/pid")
	line="TIME Syslog:request path=\"/index.html\" status=200 ms=-12 tls=true error=ENOENT(2) [cpu=N pid=$pid tid=$pid"
	k2="$line level=4 keyword=0x2]" k10000="$line level=4 keyword=0x10000]"
	printf '%s\n' "$k2" "$k2" "$k2" "$k2" "$k2" "$k2" "$k10000" "$k10000" "$k10000" "$k10000" \
		"$line level=3 keyword=0x10000]" "$line level=3 keyword=0x20000]" \
		"$line level=3 keyword=0x20000]" >"$T/want"
	# perf's trace clock without wall time: seconds and microseconds.
	sed -E 's/^[0-9]+\.[0-9]{6} /TIME /; s/\[cpu=[0-9]+ /[cpu=N /' "$T/out" >"$T/got"
	expect_same "decode of $name's native events" "$T/want" "$T/got"
}

native "$NATIVE"
if [ -x "$NATIVE_CXX" ]; then
	native "$NATIVE_CXX"
else
	echo "note: $NATIVE_CXX not built: C++ not checked"
fi

kill -INT $reg
wait $reg
finish
