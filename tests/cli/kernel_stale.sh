#!/bin/sh
# A tail killed by SIGKILL cannot remove its tracefs instance, whose
# tracepoints stay enabled for every preloaded program.  In a
# kernel with user_events (one guest boot): the instance is named
# ehsyslog-tail-PID-START-NS and stays, enabled, after SIGKILL; status names
# it as stale with the command that removes it; the next tail, the next
# register and `ehsyslog cleanup` each remove it and its tracepoints are
# no longer enabled; zombie owners, old-style and reused-pid names are
# judged right; a live tail's instance is never touched; cleanup without
# permission exits 4.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"

in_kernel "$0" "$@"

# start_tail sets pid_<name>.
pid_live='' pid_a='' pid_b='' pid_c=''

# start_of PID: field 22 of /proc/PID/stat, after the command name.
start_of() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20
}
# ns_of PID: the inode of its PID namespace; the initial one's where the
# kernel has no PID namespaces.
ns_of() {
	stat -L -c %i "/proc/$1/ns/pid" 2>/dev/null || echo 4026531836
}

# kill_tail NAME: SIGKILL, reaped; the tail had no chance to clean up.
kill_tail() {
	p=
	eval "p=\$pid_$1"
	kill -KILL "$p"
	wait "$p" 2>/dev/null
}

# instances: the names under $TR/instances, one a line, sorted.
instances() {
	find "$TR/instances" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort
}

# enabled_count: how many Syslog tracepoints status lists as enabled by ftrace.
enabled_count() {
	"$EHSYSLOG" status | grep -c '^  Syslog_L[1-5]K[0-9a-f]* .* enabled by ftrace$'
}

# expect_enabled LABEL N: status lists N Syslog tracepoints enabled by ftrace.
expect_enabled() {
	checks=$((checks + 1))
	n=$(enabled_count)
	[ "$n" = "$2" ] || fail "$1: $n Syslog tracepoints enabled by ftrace, expected $2"
}

# expect_gone LABEL DIR / expect_kept LABEL DIR
expect_gone() {
	checks=$((checks + 1))
	[ ! -e "$2" ] || fail "$1: $2 is still there"
}
expect_kept() {
	checks=$((checks + 1))
	[ -d "$2" ] || fail "$1: $2 was removed"
}

stale_line() {
	echo "stale:         $1, left by a tail that is gone: remove it with 'ehsyslog cleanup'"
}

# A live tail (facility user), running throughout: never stale, never
# removed.
start_tail live Syslog_L5K2 --facility user
inst_live=$(instance_of "$pid_live")

# 1. SIGKILL: the instance, named with pid, start time and PID namespace, stays with all
# 125 tracepoints enabled.
start_tail a Syslog_L5K800000
inst_a=$TR/instances/ehsyslog-tail-$pid_a-$(start_of "$pid_a")-$(ns_of "$pid_a")
checks=$((checks + 1))
[ "$(instance_of "$pid_a")" = "$inst_a" ] || fail "tail's instance is $(instance_of "$pid_a"), expected $inst_a"
kill_tail a
expect_kept "after SIGKILL" "$inst_a"
checks=$((checks + 1))
[ "$(cat "$inst_a/events/user_events/Syslog_L1K800000/enable")" = 1 ] ||
	fail "after SIGKILL: Syslog_L1K800000 not enabled in $inst_a"
expect_enabled "after SIGKILL" 125
expect 0 "$EHSYSLOG" status
expect_line out "$(stale_line "$inst_a")"
checks=$((checks + 1))
[ "$(grep -c '^stale:' "$T/out")" = 1 ] || fail "status lists other stale instances: $(grep '^stale:' "$T/out")"

# 2. The next tail (facility daemon) removes it, and says so.
start_tail b Syslog_L5K8 --facility daemon
expect_line b.err "ehsyslog tail: removed stale instance ${inst_a##*/} (its tail is gone)"
expect_gone "tail" "$inst_a"
expect_kept "tail: the live tail's" "$inst_live"
expect 0 "$EHSYSLOG" status
checks=$((checks + 1))
! grep -q '^stale:' "$T/out" || fail "status after tail: $(grep '^stale:' "$T/out")"
# Only the two live tails' 2 x 5 tracepoints are still enabled.
expect_line out "$(printf '  %-24s %s' Syslog_L4K2 'level 4, keyword 0x2 (facility user)  enabled by ftrace')"
expect_line out "$(printf '  %-24s %s' Syslog_L4K8 'level 4, keyword 0x8 (facility daemon)  enabled by ftrace')"
expect_enabled "after tail" 10

# 3. The next register removes a killed tail's instance too.
inst_b=$(instance_of "$pid_b")
kill_tail b
expect_kept "after SIGKILL b" "$inst_b"
"$EHSYSLOG" register --facility local0 --level 4 >"$T/reg.out" 2>"$T/reg.err" &
pid_reg=$!
wait_until 60 grep -qx Syslog_L4K10000 "$T/reg.out" || fail "register did not start: $(cat "$T/reg.err")"
expect_line reg.err "ehsyslog register: removed stale instance ${inst_b##*/} (its tail is gone)"
expect_gone "register" "$inst_b"
expect_kept "register: the live tail's" "$inst_live"
kill -INT "$pid_reg"
wait "$pid_reg" || fail "register exited $?"
expect_enabled "after register" 5

# 4. ehsyslog cleanup: a killed tail's instance, an old-style name whose
# pid is gone, a pid reused since (this shell is not the tail that made
# ehsyslog-tail-$$-1); kept: the live tail's, an old-style name of a live
# pid, names not ours.
start_tail c Syslog_L5K10 --facility auth
inst_c=$(instance_of "$pid_c")
# A tail whose parent (sleep) never reaps it: a zombie is gone too.
sh -c '"$0" tail --facility mail >/dev/null 2>&1 & echo $! >"$1"; exec sleep 600' "$EHSYSLOG" "$T/zpid" &
zparent=$!
wait_until 60 test -s "$T/zpid" || fail "no zombie-to-be tail started"
zpid=$(cat "$T/zpid")
wait_until 60 enabled_in "$zpid" Syslog_L5K4 || fail "tail $zpid did not enable Syslog_L5K4"
inst_z=$(instance_of "$zpid")
kill_tail c
kill -KILL "$zpid"
checks=$((checks + 1))
wait_until 60 grep -q '^State:.Z' "/proc/$zpid/status" || fail "tail $zpid is not a zombie: $(grep State: "/proc/$zpid/status")"
sh -c 'exit 0' &
gone=$!
wait "$gone"
for n in "ehsyslog-tail-$gone" "ehsyslog-tail-$$-1" "ehsyslog-tail-$$" ehsyslog-tail-x ehsyslog-tail-1-2-3-4 other; do
	mkdir "$TR/instances/$n" || fail "cannot make instance $n"
done
expect 0 "$EHSYSLOG" status
for n in "${inst_c##*/}" "${inst_z##*/}" "ehsyslog-tail-$gone" "ehsyslog-tail-$$-1"; do
	expect_line out "$(stale_line "$TR/instances/$n")"
done
checks=$((checks + 1))
[ "$(grep -c '^stale:' "$T/out")" = 4 ] || fail "status lists other stale instances: $(grep '^stale:' "$T/out")"

# Without permission: 4, nothing removed.
expect 4 as_nobody "$EHSYSLOG" cleanup
expect_line err "ehsyslog cleanup: cannot look for stale instances in $TR/instances: Permission denied"
expect_kept "cleanup as nobody" "$inst_c"

expect 0 "$EHSYSLOG" cleanup
expect_empty err
sort "$T/out" >"$T/got"
printf 'removed stale instance %s (its tail is gone)\n' "${inst_c##*/}" "${inst_z##*/}" "ehsyslog-tail-$gone" "ehsyslog-tail-$$-1" | sort >"$T/want"
expect_same "cleanup" "$T/want" "$T/got"
printf '%s\n' "ehsyslog-tail-$$" ehsyslog-tail-1-2-3-4 ehsyslog-tail-x "${inst_live##*/}" other | sort >"$T/want"
instances >"$T/got"
expect_same "instances after cleanup" "$T/want" "$T/got"
expect_enabled "after cleanup" 5
kill "$zparent"
wait "$zparent" 2>/dev/null
expect 0 "$EHSYSLOG" cleanup
expect_line out "no stale instances: nothing to remove"
expect 0 "$EHSYSLOG" status
checks=$((checks + 1))
! grep -q '^stale:' "$T/out" || fail "status after cleanup: $(grep '^stale:' "$T/out")"

# The live tail still works, and still cleans up after itself.
logs survivor 1 6 1 "still here"
wait_until 60 grep -q survivor "$T/live.out" || fail "the live tail printed nothing: $(cat "$T/live.err")"
stop_tail live
echo "TIME $(uname -n) survivor[$lpid]: user.info still here" >"$T/want"
mask_text "$T/live.out" >"$T/got"
expect_same "the live tail" "$T/want" "$T/got"
for n in "ehsyslog-tail-$$" ehsyslog-tail-x ehsyslog-tail-1-2-3-4 other; do
	rmdir "$TR/instances/$n"
done
no_leftovers "at the end"

finish
