#!/bin/sh
# ehsyslog tail against programs logging under the preload, in a kernel
# with user_events (one guest boot): exact text and JSON lines, each
# filter, six tails at once that do not disturb each other, SIGINT
# printing what was logged before it and leaving no instance and no
# tracepoint behind, status naming ftrace as the user, a burst of 2000
# events read whole, and lost events reported when the buffer overflows.
# On the host, in mount namespaces it makes itself: without tracefs, and
# with tracefs but (on a kernel without them) no user_events, tail exits
# 3 saying which; where that kernel has uprobe events, tail turns to them
# instead (tests/cli/uprobe_*.sh), and says so when the library is missing.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"

if [ "${1:-}" != --inside ]; then
	ns=$top_srcdir/scripts/tracefs-ns
	if why=$("$ns" --check 2>&1); then
		expect 3 "$ns" none "$EHSYSLOG" tail
		expect_empty out
		expect_line err "ehsyslog tail: no tracefs found (not in /proc/mounts, nor at /sys/kernel/tracing): this kernel has no tracing, or tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)"
		if ! grep -qw tracefs /proc/filesystems; then
			echo "note: this kernel has no tracefs: the check with tracefs but no user_events cannot run here"
		elif "$ns" fresh test -e "$TR/user_events_data"; then
			echo "note: this kernel has user_events: the check with tracefs but no user_events cannot run here"
		elif "$ns" fresh test -e "$TR/uprobe_events"; then
			expect 1 "$ns" fresh env EHSYSLOG_LIBRARY=/nonexistent/libehsyslog.so.0 "$EHSYSLOG" tail
			expect_empty out
			expect_line err "ehsyslog tail: the library's uprobe events (the transport where the kernel has no user_events): /nonexistent/libehsyslog.so.0: No such file or directory (the installed library; EHSYSLOG_LIBRARY names another)"
		else
			expect 3 "$ns" fresh "$EHSYSLOG" tail
			expect_empty out
			expect_line err "ehsyslog tail: $TR/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS)"
		fi
	else
		echo "note: no mount namespace, so no check of tail without user_events: $why"
	fi
fi
in_kernel "$0" "$@"

host=$(uname -n)
# start_tail sets pid_<name>.
pid_burst='' pid_over=''

# Six tails at once, then five programs.
start_tail all Syslog_L5K800000
start_tail json Syslog_L5K800000 --json
start_tail sev Syslog_L3K800000 --min-severity warning
start_tail fac Syslog_L5K10000 --facility daemon --facility local0
start_tail prog Syslog_L5K800000 --program wanted
start_tail prov Other_L5K800000 --provider Other

# While they run: status names ftrace as the user of every tracepoint.
expect 0 "$EHSYSLOG" status
expect_line out "user_events:   available: $TR/user_events_data is writable by this user"
expect_line out "tracepoints:   provider Syslog"
expect_line out "$(printf '  %-24s %s' Syslog_L4K2 'level 4, keyword 0x2 (facility user)  enabled by ftrace')"
expect_line out "$(printf '  %-24s %s' Syslog_L1K800000 'level 1, keyword 0x800000 (facility local7)  enabled by ftrace')"
expect_line out "$(printf '  %-24s %s' Syslog_L5K0 'level 5, keyword 0x0 (facilities 24..127)  enabled by ftrace')"
checks=$((checks + 1))
n=$(grep -c '^  Syslog_L[1-5]K[0-9a-f]* .* enabled by ftrace$' "$T/out")
[ "$n" = 125 ] || fail "status lists $n enabled Syslog tracepoints, expected 125: $(cat "$T/out")"
expect 0 env EHSYSLOG_PROVIDER=Other "$EHSYSLOG" status
expect_line out "$(printf '  %-24s %s' Other_L3K10 'level 3, keyword 0x10 (facility auth)  enabled by ftrace')"

logs wanted 1 6 1 "info to user"
p1=$lpid
logs other 3 3 1 "err to daemon"
p2=$lpid
logs wanted 16 4 1 "warning to local0"
p3=$lpid
logs other 1 7 1 "debug to user"
p4=$lpid
LOG_ENV=EHSYSLOG_PROVIDER=Other
logs wanted 1 5 1 "notice via Other"
p5=$lpid
LOG_ENV=

# At once: what was logged before SIGINT must still be printed.
for t in all json sev fac prog prov; do
	stop_tail $t
	checks=$((checks + 1))
	[ ! -s "$T/$t.err" ] || fail "tail $t wrote on stderr: $(cat "$T/$t.err")"
done
no_leftovers "after SIGINT"

line1="TIME $host wanted[$p1]: user.info info to user"
line2="TIME $host other[$p2]: daemon.err err to daemon"
line3="TIME $host wanted[$p3]: local0.warning warning to local0"
line4="TIME $host other[$p4]: user.debug debug to user"
line5="TIME $host wanted[$p5]: user.notice notice via Other"
printf '%s\n' "$line1" "$line2" "$line3" "$line4" >"$T/want"
mask_text "$T/all.out" >"$T/got"
expect_same "tail" "$T/want" "$T/got"
printf '%s\n' "$line2" "$line3" >"$T/want"
mask_text "$T/sev.out" >"$T/got"
expect_same "tail --min-severity warning" "$T/want" "$T/got"
mask_text "$T/fac.out" >"$T/got"
expect_same "tail --facility daemon --facility local0" "$T/want" "$T/got"
printf '%s\n' "$line1" "$line3" >"$T/want"
mask_text "$T/prog.out" >"$T/got"
expect_same "tail --program wanted" "$T/want" "$T/got"
printf '%s\n' "$line5" >"$T/want"
mask_text "$T/prov.out" >"$T/got"
expect_same "tail --provider Other" "$T/want" "$T/got"
cat >"$T/want" <<EOF
{"n":"Syslog:wanted","message":"info to user","severity":6,"facility":1,"errno":"ENOENT(2)","meta":{"time":"TIME","cpu":N,"pid":$p1,"tid":$p1,"level":4,"keyword":"0x2"}}
{"n":"Syslog:other","message":"err to daemon","severity":3,"facility":3,"errno":"ENOENT(2)","meta":{"time":"TIME","cpu":N,"pid":$p2,"tid":$p2,"level":2,"keyword":"0x8"}}
{"n":"Syslog:wanted","message":"warning to local0","severity":4,"facility":16,"errno":"ENOENT(2)","meta":{"time":"TIME","cpu":N,"pid":$p3,"tid":$p3,"level":3,"keyword":"0x10000"}}
{"n":"Syslog:other","message":"debug to user","severity":7,"facility":1,"errno":"ENOENT(2)","meta":{"time":"TIME","cpu":N,"pid":$p4,"tid":$p4,"level":5,"keyword":"0x2"}}
EOF
mask_json "$T/json.out" >"$T/got"
expect_same "tail --json" "$T/want" "$T/got"

# The time is now's, in the local time zone.
checks=$((checks + 1))
day=$(date +%Y-%m-%d)
grep -q "^$day" "$T/all.out" || fail "tail's time is not today ($day): $(head -n 1 "$T/all.out")"

# A burst of 2000 events: all read, in order, nothing reported lost.
start_tail burst Syslog_L4K2 --facility user --count 2000 --timeout 300
LOG_ENV=EHSYSLOG_PASSTHROUGH=0
logs burst 1 6 2000 "burst"
LOG_ENV=
src=0
wait "$pid_burst" || src=$?
checks=$((checks + 1))
[ "$src" = 0 ] || fail "tail --count 2000 exited $src"
seq 1 2000 | sed "s/^/TIME $host burst[$lpid]: user.info burst /" >"$T/want"
mask_text "$T/burst.out" >"$T/got"
expect_same "2000 events" "$T/want" "$T/got"
checks=$((checks + 1))
[ ! -s "$T/burst.err" ] || fail "tail of 2000 events wrote on stderr: $(cat "$T/burst.err")"

# The same burst into a one-page buffer while tail is stopped: what is
# lost is counted, and printed + lost = 2000.
start_tail over Syslog_L4K2 --facility user
kill -STOP "$pid_over"
echo 4 >"$(instance_of "$pid_over")/buffer_size_kb" || fail "cannot shrink the buffer"
LOG_ENV=EHSYSLOG_PASSTHROUGH=0
logs over 1 6 2000 "over"
LOG_ENV=
kill -CONT "$pid_over"
stop_tail over
printed=$(grep -c ": user.info over [0-9]*$" "$T/over.out")
lost=$(sed -n 's/^ehsyslog tail: \([0-9]*\) events lost: the trace buffer overflowed before they were read$/\1/p' "$T/over.err")
echo "overflow: $printed printed, ${lost:-none} reported lost"
checks=$((checks + 1))
if [ -z "$lost" ]; then
	fail "no lost events reported: stderr: $(cat "$T/over.err"); $printed printed"
elif [ $((printed + lost)) != 2000 ]; then
	fail "$printed printed + $lost lost != 2000"
fi
checks=$((checks + 1))
sed -n 's/.*: user.info over //p' "$T/over.out" | sort -n -c 2>/dev/null || fail "overflowed tail out of order"
# The lost markers (kernel_lost.sh checks them under a flood) say the same.
checks=$((checks + 1))
marked=$(sed -n 's/^-- CPU [0-9]*: \([0-9]*\) events\{0,1\} lost --$/\1/p' "$T/over.out" |
	awk '{ s += $1 } END { print s + 0 }')
[ "$marked" = "${lost:-0}" ] || fail "overflowed tail: markers say $marked lost, stderr ${lost:-none}"
no_leftovers "at the end"

finish
