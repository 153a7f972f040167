#!/bin/sh
# GLib's logging calls end to end: a real GLib program
# (tests/e2e/glib_calls.c, Debian's libglib2.0-dev) makes each call the
# library catches (g_message, g_warning, g_critical, g_debug, g_info
# plain and under G_LOG_USE_STRUCTURED, g_log with a domain, several
# level bits and a user level, g_log_structured with extra fields,
# g_log_structured_array with a binary field) and, in a second process,
# g_error, which ends the process: its event is written before.  perf records the
# events under the preload; every field is checked against the calls by
# tests/e2e/glib_check.py's own perf.data decoder and in `ehsyslog decode
# --json`, and in decode's text lines.  GLib's stdout and stderr are byte for byte the same without
# the library, traced and untraced, once GLib's timestamps (HH:MM:SS.mmm)
# and process ids, which differ from run to run, are masked.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
GLIB_CALLS=$top_builddir/tests/e2e/glib_calls
[ -x "$GLIB_CALLS" ] || skip "$GLIB_CALLS not built"
in_kernel "$0" "$@"

find_perf
"$EHSYSLOG" register --facility user --level all >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 grep -qx Syslog_L5K2 "$TR/user_events_status" ||
	fail "register did not register Syslog_L5K2: $(cat "$T/reg.err")"
events=
for l in 1 2 3 4 5; do
	events="$events -e user_events:Syslog_L${l}K2"
	echo "Syslog_L${l}K2 $(cat "$TR/events/user_events/Syslog_L${l}K2/id")" >>"$T/ids"
done

# glib_run LIBRARY DIR: both modes of the program with LIBRARY preloaded
# ("" for none), each one's stdout, stderr and exit status in DIR, their
# pids in DIR/pids.
cat >"$T/glib_run" <<'SH'
#!/bin/sh
mkdir -p "$2"
for mode in calls error; do
	env LD_PRELOAD="$1" G_MESSAGES_DEBUG=all E2E_EXPECT="$2/expected" \
		"$GLIB_CALLS" $mode >"$2/$mode.out" 2>"$2/$mode.err" &
	echo $! >>"$2/pids"
	rc=0
	wait $! || rc=$?
	echo $rc >"$2/$mode.rc"
done
SH
chmod +x "$T/glib_run"
export GLIB_CALLS

# shellcheck disable=SC2086 # events are words
expect 0 "$PERF" record -q $events -o "$T/glib.data" -- "$T/glib_run" "$BUILT_LIBRARY" "$T/traced"
"$T/glib_run" "$BUILT_LIBRARY" "$T/untraced"
"$T/glib_run" "" "$T/plain"

echo 0 >"$T/rc0"
# g_error ends in G_BREAKPOINT: SIGTRAP, 128 + 5 in the shell.
echo 133 >"$T/rc133"
for d in traced untraced plain; do
	expect_same "$d: calls exit status" "$T/rc0" "$T/$d/calls.rc"
	expect_same "$d: g_error exit status" "$T/rc133" "$T/$d/error.rc"
done

# GLib's output, with the run's times and pids masked.
mask_glib() {
	sed -E 's/[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}/TIME/g; s/\(([a-z_]+):[0-9]+\)/(\1:PID)/g' "$1"
}
for f in calls.out calls.err error.out error.err; do
	mask_glib "$T/plain/$f" >"$T/plain.$f"
	for d in traced untraced; do
		mask_glib "$T/$d/$f" >"$T/$d.$f"
		expect_same "GLib's $f, $d under the library and without it" "$T/plain.$f" "$T/$d.$f"
	done
done
# The comparison is not of two empty files.
checks=$((checks + 1))
grep -qx '(process:PID): glibtest-s-CRITICAL \*\*: TIME: structured 7 x' "$T/plain.calls.err" &&
	grep -qx '\*\* INFO: TIME: info -3' "$T/plain.calls.out" &&
	grep -qx '\*\* (process:PID): ERROR \*\*: TIME: fatal 9' "$T/plain.error.err" ||
	fail "GLib's output lacks the expected lines: $(cat "$T/plain.calls.err" "$T/plain.calls.out" "$T/plain.error.err")"

expect 0 "$EHSYSLOG" decode --json "$T/glib.data"
expect_empty err
cp "$T/out" "$T/decode.json"
checks=$((checks + 1))
# shellcheck disable=SC2046 # the pids are words
python3 "$top_srcdir/tests/e2e/glib_check.py" "$T/traced/expected" "$T/glib.data" \
	"$T/decode.json" "$T/ids" $(cat "$T/traced/pids") >"$T/check.out" 2>&1 ||
	fail "$(cat "$T/check.out")"
cat "$T/check.out"

# Text lines show the fields after the message; a plain event none.
expect 0 "$EHSYSLOG" decode "$T/glib.data"
expect_empty err
sed 's/^[^ ]* [^ ]* //' "$T/out" >"$T/text"
p1=$(sed -n 1p "$T/traced/pids") p2=$(sed -n 2p "$T/traced/pids")
for line in \
	"glibtest-a[$p1]: user.warning array message [file=\"arr.c\" line=5 GLIB_DOMAIN=\"glibtest-a\" BLOB=0001ff7a COUNTED=\"abc\"]" \
	"glibtest-s[$p1]: user.err structured 7 x [file=\"some/file.c\" line=77 GLIB_DOMAIN=\"glibtest-s\" CODE_FUNC=\"some_func\" MY_FIELD=\"my value\"]" \
	"glibtest-dom[$p1]: user.warning with domain 42 [GLIB_DOMAIN=\"glibtest-dom\"]" \
	"glib_calls[$p1]: user.notice message 1" \
	"glib_calls[$p2]: user.crit fatal 9"; do
	checks=$((checks + 1))
	grep -qxF -- "$line" "$T/text" || fail "decode's text lacks the line '$line'; it was: $(cat "$T/text")"
done

kill -INT $reg
wait $reg
finish
