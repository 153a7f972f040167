#!/bin/sh
# ehsyslog export reads while a request is in flight: with a collector that answers every request after 2 s and a
# program that logs 20,000 messages at 10,000 a second, on this
# machine's kernel through the uprobe transport (as uprobe_export.sh),
# every record arrives once, in the order logged, none lost by the trace
# buffer (export's default size) and none dropped, the queue having room
# for them all.  An exporter that stops reading while a request waits
# leaves 2 s of the load to the kernel's buffer, which does not hold it:
# export did, and lost about a third of the records.
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

# has_records N: the receiver has written N records (or more).
# shellcheck disable=SC2317 # called through wait_until
has_records() {
	[ "$(wc -l <"$T/slow/records")" -ge "$1" ]
}

COUNT=20000
# The load's rate: 10,000 a second.  A sanitizer build's export reads
# the trace buffers two to three times slower (it lost 3,744 events to
# the buffer at that rate, waiting on nothing): there a quarter of it,
# still 2 s of load per request in flight.  The plain build's run is the
# one that tells an exporter that waits on its requests.
RATE=10000
[ "${sanitizers:-no}" != yes ] || RATE=2500
# One request in flight at a time, each answered after 2 s: batches of
# up to 10,000 records (as many as --batch-bytes lets in) keep up with
# the load, and the queue holds it all.
start_receiver slow --delay-ms 2000
start_export slow --uprobes="$LIB" --endpoint "$url" --batch-delay 200 \
	--batch-size 10000 --queue-size 25000
# Its tracepoints enabled, export may not read yet (a sanitizer build's
# took longer than the buffer holds of the load, and lost its start):
# the load begins once one record has made the whole way.
logs warm 1 6 1 "warm" $linger
checks=$((checks + 1))
wait_until 60 has_records 1 || fail "the first record did not arrive in 60 s"
logs -r $RATE load 1 6 $COUNT "load" $linger
checks=$((checks + 1))
wait_until 120 has_records $((COUNT + 1)) ||
	fail "$(grep -c '"load [0-9]*"' "$T/slow/records") of $COUNT records arrived in 120 s"
stop_export slow
echo "export said: $(tail -n 1 "$T/slow.err")"
echo "requests (status, records): $(cut -d' ' -f1,2 "$T/slow/requests" | tr '\n' ' ')"

# Each record is the load's, of one resource, fields as logged...
echo "R: $(res $lpid load) | S: 9 info | B: \"load N\" | A: $(attrs load 1 $lpid) | T: ok" >"$T/one.want"
grep -v '| B: "warm" |' "$T/slow/records" | sed 's/ | B: "load [0-9]*" | / | B: "load N" | /' | sort -u >"$T/one.got"
expect_same "slow: every record's fields" "$T/one.want" "$T/one.got"
# ... and the bodies are load 1 to load 20000, each once, in order.
seq $COUNT >"$T/order.want"
sed -n 's/.* | B: "load \([0-9]*\)" | .*/\1/p' "$T/slow/records" >"$T/order.got"
checks=$((checks + 1))
cmp -s "$T/order.want" "$T/order.got" ||
	fail "slow: the records are not load 1 to load $COUNT once each in order: $(wc -l <"$T/order.got") came; first difference: $(diff "$T/order.want" "$T/order.got" | head -n 5 | tr '\n' ' ')"
expect_line slow.err "ehsyslog export: $((COUNT + 1)) records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
checks=$((checks + 1))
[ -z "$(defined "$GROUP")" ] || fail "events left: $(defined "$GROUP")"
finish
