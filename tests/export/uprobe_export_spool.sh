#!/bin/sh
# ehsyslog export's queue on disk (--queue-dir), through the uprobe
# transport on this machine's kernel (uprobe_export_lib.sh):
# - restart: a first export delivers a batch, then the collector answers
#   only 503 and export is killed (SIGKILL) with a batch queued; a second
#   export given the same directory sends that batch, and its own
#   records after it, to a collector that answers 200: every record
#   arrives once, in order, none of the first batch again; while it runs
#   the directory is locked against a third (--queue-dir, or queue-dir in
#   the configuration file; an empty --queue-dir turns that off);
# - damage: of a batch left queued by an export stopped during an outage,
#   a record's byte is changed and the last record cut short; the next
#   export says each once and sends the other records, exactly: only the
#   first, as the third's frame has no resource of its own (it has the
#   one before's, spool.h) and is skipped with the damage.
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

# want IDENT PID COUNT MESSAGE [I...]: the records of "logs IDENT 1 6
# COUNT MESSAGE" (info, user), of process PID: those numbered I, or all.
want() {
	w_id=$1 w_pid=$2 w_n=$3 w_msg=$4
	shift 4
	# shellcheck disable=SC2046 # numbers
	[ $# -gt 0 ] || set -- $(seq "$w_n")
	for i in "$@"; do
		echo "R: $(res "$w_pid" "$w_id") | S: 9 info | B: \"$w_msg $i\" | A: $(attrs "$w_id" 1 "$w_pid") | T: ok"
	done
}

# killed NAME: SIGKILL for export; it is gone, without its exit report.
killed() {
	kill -KILL $xpid
	checks=$((checks + 1))
	wait_until 60 gone $xpid || fail "export $1 still runs after SIGKILL"
	wait $xpid || true
	checks=$((checks + 1))
	! grep -q ' records\? sent, ' "$T/$1.err" || fail "$1: an exit report after SIGKILL"
}

# --- restart: SIGKILL in the middle of an outage, then a restart.
Q=$T/queue
start_receiver before --answers "200,$outage"
start_export first "$TRANSPORT" --endpoint "$url" --queue-dir "$Q" --batch-delay 300 \
	--backoff-initial 200 --backoff-max 400
logs sent 1 6 3 "sent" $linger
p1=$lpid
await_records before 3
logs queued 1 6 4 "queued" $linger
p2=$lpid
# The batch is queued once the collector has refused it.
checks=$((checks + 1))
wait_until 30 grep -q '^503 4 "queued 1"$' "$T/before/requests" ||
	fail "restart: the second batch was not refused: $(cat "$T/before/requests")"
killed first
kill $rpid
want sent $p1 3 sent >"$T/before.want"
expect_same "restart: the first export's records" "$T/before.want" "$T/before/records"

start_receiver after
start_export second "$TRANSPORT" --endpoint "$url" --queue-dir "$Q" --batch-delay 300
expect_line second.err "ehsyslog export: 4 records an earlier run left in $Q, to send"
# Locked while the second runs: a third refuses it, before tracing,
# given it on the command line or by the configuration file's key.
expect 1 "$EHSYSLOG" export "$TRANSPORT" --endpoint "$url" --queue-dir "$Q" --timeout 1
expect_line err "ehsyslog export: the queue's directory $Q is in use by another export"
printf '[export]\nqueue-dir = %s\n' "$Q" >"$T/queue.conf"
expect 1 env EHSYSLOG_CONFIG="$T/queue.conf" "$EHSYSLOG" export "$TRANSPORT" --endpoint "$url" --timeout 1
expect_line err "ehsyslog export: the queue's directory $Q is in use by another export"
# An empty value turns the file's off: this one runs.
expect 0 env EHSYSLOG_CONFIG="$T/queue.conf" "$EHSYSLOG" export "$TRANSPORT" --endpoint "$url" \
	--queue-dir '' --timeout 1
logs later 1 6 2 "later" $linger
p3=$lpid
await_records after 6
stop_export second
{
	want queued $p2 4 queued
	want later $p3 2 later
} >"$T/after.want"
expect_same "restart: every record once, in order" "$T/after.want" "$T/after/records"
expect_line second.err "ehsyslog export: 6 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
after_export "after the restart"
# All acknowledged: a third run finds nothing to send.
start_receiver third
start_export third "$TRANSPORT" --endpoint "$url" --queue-dir "$Q"
stop_export third
checks=$((checks + 1))
! grep -q 'earlier run' "$T/third.err" || fail "restart: sent again: $(cat "$T/third.err")"
expect_line third.err "ehsyslog export: 0 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"

# --- damage: a record changed, the last cut short.
Q=$T/damaged
left_queued "$Q" kept 4
p4=$lpid
checks=$((checks + 1))
segs=$(cd "$Q" && ls ./*.seg)
[ "$(echo "$segs" | wc -l)" = 1 ] || fail "damage: one segment expected: $segs"
seg=$Q/${segs#./}
# The frames' offsets and kinds (spool.h's format), "START END MAGIC"
# each: the records of one process share their resource, so only the
# first frame has it.  Then "kept 2" becomes "kepT 2" and the last frame
# loses its last 3 bytes.
python3 - "$seg" >"$T/frames" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
pos = 16
while pos < len(data):
    rl, cl = struct.unpack_from("<II", data, pos + 4)
    print(pos, pos + 16 + rl + cl, data[pos:pos + 4].decode())
    pos += 16 + rl + cl
EOF
checks=$((checks + 1))
[ "$(cut -d' ' -f3 "$T/frames" | tr '\n' ' ')" = "EHSF EHSR EHSR EHSR " ] ||
	fail "damage: 4 frames, one resource expected: $(cat "$T/frames")"
read -r s2 _ <<EOF
$(sed -n 2p "$T/frames")
EOF
read -r _ e3 _ <<EOF
$(sed -n 3p "$T/frames")
EOF
read -r s4 e4 _ <<EOF
$(sed -n 4p "$T/frames")
EOF
python3 - "$seg" "$((e4 - 3))" <<'EOF'
import sys
path, size = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
assert data.count(b"kept 2") == 1
open(path, "wb").write(data.replace(b"kept 2", b"kepT 2")[:size])
EOF
start_receiver up
start_export up "$TRANSPORT" --endpoint "$url" --queue-dir "$Q" --batch-delay 300
expect_line up.err "ehsyslog export: $seg: damaged records skipped: $((e3 - s2)) bytes from byte $s2"
expect_line up.err "ehsyslog export: $seg: a record cut short skipped: $((e4 - 3 - s4)) bytes from byte $s4"
expect_line up.err "ehsyslog export: 1 record an earlier run left in $Q, to send"
await_records up 1
stop_export up
want kept $p4 4 kept 1 >"$T/up.want"
expect_same "damage: the records left whole" "$T/up.want" "$T/up/records"
checks=$((checks + 1))
[ "$(grep -c 'skipped' "$T/up.err")" = 2 ] || fail "damage: said more than once: $(cat "$T/up.err")"
expect_line up.err "ehsyslog export: 1 record sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
after_export "after the damage"
finish
