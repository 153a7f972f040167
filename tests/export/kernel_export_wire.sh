#!/bin/sh
# ehsyslog export's encodings and the collector's partial success, in a
# kernel with user_events (one guest boot; export_lib.sh):
#  1. --encoding json --compression gzip: the receiver gunzips and reads
#     each request with the official JSON parser, and the records are the
#     same field by field; a partial_success in JSON (a warning, nothing
#     rejected) reaches stderr;
#  2. a partial_success rejecting 2 of 3 records: they count as dropped,
#     on stderr, in the exit summary and in the drop-notice record.
. "${top_srcdir:-.}/tests/export/export_lib.sh"

# 1. JSON, gzip-compressed; the first answer a JSON partial_success that
# only warns.  Quotes, a backslash and UTF-8 go through JSON's escaping;
# the long message through a body larger than the encoder's first buffer.
start_receiver wire --encoding json --compression gzip --partial-success 0 "keep the clocks in sync"
# A batch delay well past the time the logger takes for its calls, but
# under its linger: its three records are one request, the long message
# (logged once that logger is gone) another.
start_export wire --endpoint "$url" --encoding json --compression gzip --batch-delay 3000 \
	--request-timeout 30000 --resource test.run=6
special='a "quoted" back\slash, café €'
logs wire 1 5 3 "$special" $linger
p1=$lpid
await_records wire 3
logs wire 3 6 1 "$long" $linger
p2=$lpid
await_records wire 4
stop_export wire
{
	for i in 1 2 3; do
		# printf: echo would take the backslash as an escape
		printf '%s\n' "R: $(res $p1 wire ' test.run="6"') | S: 10 notice | B: $(json_str "$special $i" utf-8) | A: $(attrs wire 1 $p1) | T: ok"
	done
	echo "R: $(res $p2 wire ' test.run="6"') | S: 9 info | B: \"$long\" | A: $(attrs wire 3 $p2) | T: ok"
} >"$T/wire.want"
expect_same "wire: the records, from JSON" "$T/wire.want" "$T/wire/records"
printf '200 3 %s\n200 1 "%s"\n' "$(json_str "$special 1" ascii)" "$long" >"$T/wire.requests.want"
expect_same "wire: the requests, JSON and gzip as asked" "$T/wire.requests.want" "$T/wire/requests"
expect_line wire.err "ehsyslog export: the collector rejected 0 of 3 records: keep the clocks in sync"
expect_line wire.err "ehsyslog export: 4 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"

# 2. A partial success that rejects 2 of 3 records (protobuf).
start_receiver partial --partial-success 2 "2 records too old"
start_export partial --endpoint "$url" --batch-delay 3000 --request-timeout 30000
logs partly 1 4 3 "partly" $linger
await_records partial 4
stop_export partial
{
	for i in 1 2 3; do
		echo "R: $(res $lpid partly) | S: 13 warning | B: \"partly $i\" | A: $(attrs partly 1 $lpid) | T: ok"
	done
	echo "R: host.name=\"$host\" process.executable.name=\"ehsyslog\" process.pid=$xpid service.name=\"ehsyslog-export\" | S: 13 warning | B: \"ehsyslog export: 2 records dropped (queue full or refused), 0 events lost by the trace buffer\" | A:  | T: ok"
} >"$T/partial.want"
expect_same "partial: the records and the drop notice" "$T/partial.want" "$T/partial/records"
expect_line partial.err "ehsyslog export: the collector rejected 2 of 3 records: 2 records too old"
expect_line partial.err "ehsyslog export: 2 records sent, 2 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"

no_leftovers "at the end"
finish
