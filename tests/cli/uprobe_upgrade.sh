#!/bin/sh
# The library replaced by rename, as dpkg upgrades it, on this machine's
# kernel: a uprobe reaches only the inode its path named when it was
# defined.  A tail and an export started before the swap print and send
# the events of a program started once the new file's probe is there
# (how long after the swap is said, not judged: about 0.1 s, a read
# pass), and those of one that still maps the old file; a tail started
# after the swap too.  Each event then has two definitions, the old
# file's and the new one's.  register --uprobes run again after a swap
# adds the new file's probes to the events it defined before, and says
# so.
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

# swap: a new file renamed over $LIB, as dpkg does (NAME.dpkg-new).
swap() {
	cp "$BUILT_LIBRARY" "$LIB.dpkg-new"
	mv "$LIB.dpkg-new" "$LIB"
}
# definitions LEVEL: how many lines of uprobe_events define GROUP/LEVEL.
definitions() {
	grep -c "^p:$GROUP/$1 " "$TR/uprobe_events"
}
# messages FILE: the messages of the tail's JSON lines in FILE.
messages() {
	sed -n 's/.*"message":"\([^"]*\)".*/\1/p' "$T/$1"
}

# A program that maps the file there before the swap, and logs after it.
cat >"$T/old.py" <<'PY'
import os, sys, syslog, time
print("up", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.05)
syslog.openlog("upgrade", 0, syslog.LOG_USER)
syslog.syslog(syslog.LOG_INFO, "old file after swap")
PY
LD_PRELOAD=$PRELOAD python3 "$T/old.py" "$T/go" >"$T/old.out" 2>"$T/old.err" &
old=$!
wait_until 60 test -s "$T/old.out" || fail "the old file's program did not start: $(cat "$T/old.err")"

start_receiver upgrade
start_export upgrade "$TRANSPORT" --endpoint "$url" --batch-delay 300
"$EHSYSLOG" tail "$TRANSPORT" --json --count 4 --timeout 60 >"$T/before.out" 2>"$T/before.err" &
before=$!
wait_until 60 enabled_in_tail $before "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/before.err")"
checks=$((checks + 1))
[ "$(definitions info)" = 1 ] || fail "before the swap: $(grep "$GROUP/info " "$TR/uprobe_events")"

logs upgrade 1 6 1 "before swap" hold
# The readers look at the path at each read pass (about every 0.1 s):
# the program logs once the new file's probe is on the event, which one
# reader adds for both (the events are shared), and how long that took
# is said, not judged (a loaded sanitizer build takes longer).
start_ms=$(date +%s%3N)
swap
wait_until 60 sh -c '[ "$(grep -c "^p:$1/info " "$2")" = 2 ]' sh "$GROUP" "$TR/uprobe_events" ||
	fail "no reader added the new file's probe: $(grep "$GROUP/info " "$TR/uprobe_events")"
settled || fail "a reader held $TR/uprobe_events locked for 60 s"
armed "$GROUP" info $before "$xpid" || fail "the readers' $GROUP/info was not enabled again"
echo "note: the new file's probe was added and armed $(($(date +%s%3N) - start_ms)) ms after the swap"
logs upgrade 1 6 1 "new file after swap" hold
touch "$T/go"
wait $old || fail "the old file's program exited $?: $(cat "$T/old.err")"
checks=$((checks + 1))
[ "$(definitions info)" = 2 ] || fail "after the swap: $(grep "$GROUP/info " "$TR/uprobe_events")"

"$EHSYSLOG" tail "$TRANSPORT" --json --count 1 --timeout 60 >"$T/after.out" 2>"$T/after.err" &
after=$!
wait_until 60 enabled_in_tail $after "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/after.err")"
logs upgrade 1 6 1 "tail started after swap" hold

wait $before || fail "the tail started before the swap exited $?: $(cat "$T/before.err")"
wait $after || fail "the tail started after the swap exited $?: $(cat "$T/after.err")"
expect_empty before.err
expect_empty after.err
# The old file's event comes from another process: compared as a set.
messages before.out | sort >"$T/got"
printf '%s\n' "before swap" "new file after swap" "old file after swap" "tail started after swap" |
	sort >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "the tail started before the swap printed: $(cat "$T/before.out")"
checks=$((checks + 1))
[ "$(messages after.out)" = "tail started after swap" ] ||
	fail "the tail started after the swap printed: $(cat "$T/after.out")"

await_records upgrade 4
for m in "before swap" "new file after swap" "old file after swap" "tail started after swap"; do
	checks=$((checks + 1))
	[ "$(grep -c "| B: \"$m\" |" "$T/upgrade/records")" = 1 ] ||
		fail "export sent '$m' $(grep -c "| B: \"$m\" |" "$T/upgrade/records") times: $(cat "$T/upgrade/records")"
done
stop_export upgrade
# Its summary, and nothing else: no warning about the swap.
checks=$((checks + 1))
[ "$(cat "$T/upgrade.err")" = "ehsyslog export: 4 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer" ] ||
	fail "export said: $(cat "$T/upgrade.err")"
after_export upgrade

# register --uprobes, run again after a swap: the new file's probes join
# the events it defined, and a program started then is traced.
expect 0 "$EHSYSLOG" register --uprobes --level info "$LIB"
expect_empty err
swap
expect 0 "$EHSYSLOG" register --uprobes --level info "$LIB"
expect_line out "$GROUP:info"
expect_line err "ehsyslog register: note: some of these were defined on an earlier file at $LIB, replaced since; the probes of the file there now were added to them"
checks=$((checks + 1))
[ "$(definitions info)" = 2 ] || fail "after register: $(grep "$GROUP/info " "$TR/uprobe_events")"
# Again, with nothing replaced: nothing added, nothing said.
expect 0 "$EHSYSLOG" register --uprobes --level info "$LIB"
expect_empty err
checks=$((checks + 1))
[ "$(definitions info)" = 2 ] || fail "register again: $(grep "$GROUP/info " "$TR/uprobe_events")"
"$EHSYSLOG" tail "$TRANSPORT" --json --count 1 --timeout 60 >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 enabled_in_tail $reg "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/reg.err")"
logs upgrade 1 6 1 "after register"
wait $reg || fail "the tail after register exited $?: $(cat "$T/reg.err")"
checks=$((checks + 1))
[ "$(messages reg.out)" = "after register" ] || fail "the tail after register printed: $(cat "$T/reg.out")"
# One deletion takes both definitions.
expect 0 "$EHSYSLOG" register --uprobes --delete --level info "$LIB"
checks=$((checks + 1))
[ "$(definitions info)" = 0 ] || fail "after --delete: $(grep "$GROUP/info " "$TR/uprobe_events")"
finish
