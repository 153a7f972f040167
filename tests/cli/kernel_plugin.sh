#!/bin/sh
# plugin_ehsyslog.so in the tools users already have, in a kernel with
# user_events (one guest boot): programs log under the preload while
# trace-cmd record and perf record run; then trace-cmd report (plugin
# from TRACEEVENT_PLUGIN_DIR) and perf script (plugin from
# ~/.local/lib/traceevent/plugins, the places Debian's perf 6.1 looks)
# print each event's fields: exactly the expected lines, and exactly what
# `ehsyslog decode --fields` prints for the same file after its time.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
PLUGIN=$top_builddir/src/traceevent/.libs/plugin_ehsyslog.so
[ "${1:-}" = --inside ] || [ -f "$PLUGIN" ] || skip "$PLUGIN not built"
in_kernel "$0" "$@"

find_perf
command -v trace-cmd >/dev/null || fail "trace-cmd not installed (scripts/setup installs it)"

stage_plugin "$PLUGIN"

"$EHSYSLOG" register --facility user,daemon --level info --level err >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 grep -qx Syslog_L2K8 "$TR/user_events_status" ||
	fail "register did not register Syslog_L2K8: $(cat "$T/reg.err")"
events="-e user_events:Syslog_L4K2 -e user_events:Syslog_L2K8"

# log_two: a user program logs two messages, a daemon one error with
# quotes and a tab; their pids in $T/pids.
cat >"$T/log_two" <<'SH'
#!/bin/sh
env LD_PRELOAD="$1" "$2" first 1 6 2 "user said" & echo $! >"$3"; wait $!
env LD_PRELOAD="$1" "$2" second 3 3 1 "disk \"sda\"	failed" & echo $! >>"$3"; wait $!
SH
chmod +x "$T/log_two"

# want: the lines the plugin prints for log_two's events, cpu masked.
want() {
	p1=$(sed -n 1p "$T/pids") p2=$(sed -n 2p "$T/pids")
	for i in 1 2; do
		printf '%s\n' "Syslog:first message=\"user said $i\" severity=6 facility=1 errno=ENOENT(2) [cpu=N pid=$p1 tid=$p1 level=4 keyword=0x2]"
	done
	printf '%s\n' "Syslog:second message=\"disk \\\"sda\\\"\\tfailed\" severity=3 facility=3 errno=ENOENT(2) [cpu=N pid=$p2 tid=$p2 level=2 keyword=0x8]"
}
mask_cpu() {
	sed -E 's/\[cpu=[0-9]+ /[cpu=N /' "$1"
}

# check_tool NAME FILE: $T/out holds the tool's output; the text after
# the tracepoint name of each of our events is exactly want, and exactly
# what decode --fields prints for FILE after its time.
check_tool() {
	sed -nE 's/^.*[0-9]+\.[0-9]+: (user_events:)?Syslog_L[0-9A-F]+K[0-9A-F]+: +//p' "$T/out" >"$T/$1.lines"
	want >"$T/want"
	mask_cpu "$T/$1.lines" >"$T/got"
	expect_same "$1" "$T/want" "$T/got"
	cp "$T/$1.lines" "$T/$1.plugin"
	expect 0 "$EHSYSLOG" decode --fields "$2"
	expect_empty err
	sed -E 's/^[^ ]+ //' "$T/out" >"$T/$1.decode"
	expect_same "$1 against decode --fields" "$T/$1.decode" "$T/$1.plugin"
}

# shellcheck disable=SC2086 # events are words
expect 0 trace-cmd record -q $events -o "$T/trace.dat" -- \
	"$T/log_two" "$BUILT_LIBRARY" "$LOGGER" "$T/pids"
# shellcheck disable=SC2086 # TOOL_ENV is words
expect 0 env HOME="$T/empty" TRACEEVENT_PLUGIN_DIR="$T/plugins" $TOOL_ENV \
	trace-cmd report -i "$T/trace.dat"
check_tool trace-cmd "$T/trace.dat"

# shellcheck disable=SC2086
expect 0 "$PERF" record -q $events -o "$T/perf.data" -- \
	"$T/log_two" "$BUILT_LIBRARY" "$LOGGER" "$T/pids"
# shellcheck disable=SC2086
expect 0 env -u TRACEEVENT_PLUGIN_DIR HOME="$T/home" $TOOL_ENV \
	"$PERF" script -i "$T/perf.data"
check_tool perf "$T/perf.data"

kill -INT $reg
wait $reg
finish
