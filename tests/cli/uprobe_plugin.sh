#!/bin/sh
# plugin_ehsyslog.so on the library's uprobe events, on this machine's
# kernel: perf script and trace-cmd report print each event of the
# installed library's group (ehsyslog) as the plugin prints a user_events
# one, and exactly what decode --fields prints of the same file.  The
# test's copy of the library stands for the installed one
# (EHSYSLOG_LIBRARY), so its events are the group the plugin names.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/perf_path.sh"
in_namespace "$0" "$@"

PLUGIN=$top_builddir/src/traceevent/.libs/plugin_ehsyslog.so
[ -f "$PLUGIN" ] || skip "$PLUGIN not built"
installed_library "$T/libehsyslog.so.0"
expect 0 "$EHSYSLOG" register --uprobes
expect_line out "ehsyslog:warning"

cat >"$T/run.sh" <<S
#!/bin/sh
echo \$\$ >"$T/prog.pid"
LD_PRELOAD="$PRELOAD" exec python3 -c 'import syslog
syslog.openlog("plug", syslog.LOG_PID, syslog.LOG_DAEMON)
syslog.syslog(syslog.LOG_WARNING, "disk \\"sda\\" 91% full")
syslog.syslog(syslog.LOG_LOCAL0 | syslog.LOG_ERR, "third")'
S
chmod +x "$T/run.sh"

stage_plugin "$PLUGIN"

# check_lines NAME FILE: $T/out holds the tool's report; the line of
# each event after its event name is what the plugin prints, and exactly
# what decode --fields prints for FILE after its time.
check_lines() {
	prog=$(cat "$T/prog.pid")
	# perf names the event system:name, trace-cmd by its name alone.
	sed -nE 's/^.* (ehsyslog:)?(error|warning): +//p' "$T/out" | sed -E 's/\[cpu=[0-9]+ /[cpu=N /' >"$T/$1.got"
	{
		printf '%s\n' "Syslog:plug message=\"disk \\\"sda\\\" 91% full\" severity=4 facility=3 errno=ERRNO(0) [cpu=N pid=$prog tid=$prog level=3 keyword=0x8]"
		printf '%s\n' "Syslog:plug message=\"third\" severity=3 facility=16 errno=ERRNO(0) [cpu=N pid=$prog tid=$prog level=2 keyword=0x10000]"
	} >"$T/$1.want"
	expect_same "$1 with the plugin" "$T/$1.want" "$T/$1.got"
	sed -nE 's/^.* (ehsyslog:)?(error|warning): +//p' "$T/out" >"$T/$1.plugin"
	expect 0 "$EHSYSLOG" decode --fields "$2"
	sed -E 's/^[^ ]+ //' "$T/out" >"$T/$1.decode"
	expect_same "$1 against decode --fields" "$T/$1.decode" "$T/$1.plugin"
}

if PERF=$(perf_path); then
	expect 0 "$PERF" record -q -e 'ehsyslog:*' -o "$T/perf.data" -- "$T/run.sh"
	# shellcheck disable=SC2086 # TOOL_ENV is words
	expect 0 env -u TRACEEVENT_PLUGIN_DIR HOME="$T/home" $TOOL_ENV \
		"$PERF" script -i "$T/perf.data"
	check_lines perf "$T/perf.data"
else
	echo "SKIP (sub-check): no working perf"
fi

# trace-cmd: record, or where this kernel refuses trace-cmd's
# ftrace_enabled, the top instance through extract, as uprobe_decode.sh
# does, under the lock of the tests that use the top instance.
exec 9>"$TOP_INSTANCE_LOCK"
flock 9
if trace-cmd record -q -e ehsyslog:error -e ehsyslog:warning -o "$T/trace.dat" -- "$T/run.sh" \
	>"$T/tc.out" 2>&1; then
	:
elif grep -qv '^#' "$TR/set_event"; then
	echo "SKIP (sub-check): trace-cmd record fails here and the top instance is in use"
	flock -u 9
	finish
else
	echo 1 >"$TR/events/ehsyslog/error/enable"
	echo 1 >"$TR/events/ehsyslog/warning/enable"
	"$T/run.sh"
	echo 0 >"$TR/events/ehsyslog/error/enable"
	echo 0 >"$TR/events/ehsyslog/warning/enable"
	trace-cmd extract -o "$T/trace.dat" >"$T/tc.out" 2>&1 || fail "trace-cmd extract: $(cat "$T/tc.out")"
fi
flock -u 9
# shellcheck disable=SC2086 # TOOL_ENV is words
expect 0 env HOME="$T/empty" TRACEEVENT_PLUGIN_DIR="$T/plugins" $TOOL_ENV \
	trace-cmd report -i "$T/trace.dat"
check_lines trace-cmd "$T/trace.dat"
expect 0 "$EHSYSLOG" register --uprobes --delete
checks=$((checks + 1))
[ -z "$(defined ehsyslog)" ] || fail "left defined: $(defined ehsyslog)"
finish
