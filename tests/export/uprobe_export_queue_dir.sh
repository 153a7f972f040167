#!/bin/sh
# ehsyslog export's queue directory (--queue-dir) as another user could
# have left it, through the uprobe transport on this machine's kernel
# (uprobe_export_lib.sh).  An export stopped during an outage leaves 50
# records queued; then:
# - refused, exit 1, before tracing, nothing written: the directory
#   writable by its group or others, owned by another user, a link to a
#   directory of root's own;
# - said, and all 50 records sent, in order, once a run: an "ack" with a
#   valid CRC past the queue's end and an empty file at the next
#   segment's name (what a crash just after creating it leaves); a FIFO
#   named "ack" (no hang) and a link at the next segment's name; a link
#   named "ack" to a file of root's, which is left as it was, and a
#   directory at the next segment's name.
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

# want IDENT PID COUNT MESSAGE: the records of "logs IDENT 1 6 COUNT
# MESSAGE" (info, user), of process PID.
want() {
	for i in $(seq "$3"); do
		echo "R: $(res "$2" "$1") | S: 9 info | B: \"$4 $i\" | A: $(attrs "$1" 1 "$2") | T: ok"
	done
}

# --- 50 records left queued by an export stopped during an outage.
Q=$T/queue
left_queued "$Q" queued 50
want queued $lpid 50 queued >"$T/all.want"
cp -a "$Q" "$T/queue.orig"

# restore: Q as the outage left it.
restore() {
	rm -rf "$Q"
	cp -a "$T/queue.orig" "$Q"
}

# next_name: the name of the segment the next run starts (the queue's end).
next_name() {
	python3 - "$Q" <<'PY'
import os, re, sys
ends = [int(n[:16], 16) + os.path.getsize(os.path.join(sys.argv[1], n))
        for n in os.listdir(sys.argv[1]) if re.fullmatch(r"[0-9a-f]{16}\.seg", n)]
print("%016x.seg" % max(ends))
PY
}

# resend NAME: an export given Q sends all 50 records, in order, and
# says it; its stderr in $T/NAME.err.
resend() {
	start_receiver "$1"
	start_export "$1" "$TRANSPORT" --endpoint "$url" --queue-dir "$Q" --batch-delay 300
	expect_line "$1.err" "ehsyslog export: 50 records an earlier run left in $Q, to send"
	await_records "$1" 50
	stop_export "$1"
	expect_same "$1: every record, once" "$T/all.want" "$T/$1/records"
	expect_line "$1.err" "ehsyslog export: 50 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
	after_export "$1"
}

# refused WHAT: export given DIR exits 1 saying "the queue's directory
# DIR WHAT: refused", before it traces anything.
refused() {
	expect 1 "$EHSYSLOG" export "$TRANSPORT" --endpoint http://127.0.0.1:9 --queue-dir "$dir" \
		--timeout 1
	expect_line err "ehsyslog export: the queue's directory $dir $1: refused"
	checks=$((checks + 1))
	[ -z "$(defined "$GROUP")" ] || fail "refused: events defined: $(defined "$GROUP")"
}

# --- refused: each leaves the queue as it was.
dir=$Q
chmod 0770 "$Q"
refused "can be written by its group or others (mode 0770)"
chmod 0702 "$Q"
refused "can be written by its group or others (mode 0702)"
chmod 0700 "$Q"
chown 65534:65534 "$Q"
refused "is owned by uid 65534, not by uid 0 that export runs as"
chown 0:0 "$Q"
mkdir -m 0700 "$T/secret"
ln -s "$T/secret" "$T/link"
dir=$T/link
refused "is a symbolic link"
checks=$((checks + 1))
[ -z "$(ls -A "$T/secret")" ] || fail "refused: written through the link: $(ls -A "$T/secret")"
checks=$((checks + 1))
diff -r "$T/queue.orig" "$Q" >/dev/null || fail "refused: the queue changed"

# --- a forged ack past the end, an empty file at the next segment's name.
next=$(next_name)
python3 - "$Q/ack" <<'PY'
import struct, sys, zlib
slot = b"EHSQACK1" + struct.pack("<Q", 1 << 40)
open(sys.argv[1], "wb").write(slot + struct.pack("<I", zlib.crc32(slot)))
PY
: >"$Q/$next"
resend forged
expect_line forged.err "ehsyslog export: $Q/ack: damaged: past the queue's end ($((1 << 40)), the queue ends at $((0x${next%.seg}))): every record in $Q is sent again"
expect_line forged.err "ehsyslog export: $Q/$next: in the way of a new segment: set aside as $next.aside"

# --- a FIFO named ack, a link at the next segment's name.
restore
mkfifo "$Q/ack"
ln -s /etc/passwd "$Q/$next"
resend fifo
expect_line fifo.err "ehsyslog export: $Q/ack: not a regular file of export's user: set aside as ack.aside: every record in $Q is sent again"
expect_line fifo.err "ehsyslog export: $Q/$next: in the way of a new segment: set aside as $next.aside"

# --- a link named ack to root's file, a directory at the next name.
restore
printf 'root' >"$T/secret/ack"
ln -s "$T/secret/ack" "$Q/ack"
mkdir "$Q/$next"
resend linked
expect_line linked.err "ehsyslog export: $Q/ack: not a regular file of export's user: set aside as ack.aside: every record in $Q is sent again"
expect_line linked.err "ehsyslog export: $Q/$next: in the way of a new segment: set aside as $next.aside"
checks=$((checks + 1))
[ "$(cat "$T/secret/ack")" = root ] || fail "linked: written through the link to $T/secret/ack"
finish
