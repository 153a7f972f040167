#!/bin/sh
# ehsyslog export against programs logging under the preload, in a kernel
# with user_events (one guest boot), and a receiver that decodes every
# request with the official OTLP definitions (proto/, compiled by protoc):
#  1. an outage (503, 503, then 200): every record arrives once, in the
#     order logged, field by field as ehsyslog(1) EXPORT says, a split
#     message whole, and the retried batch is the one refused;
#  2. a full queue while the collector is away: the drops are counted on
#     stderr and reported by a record once it is back;
#  3. a receiver that never answers: the queue stays at its bound, the
#     drops are counted, and SIGTERM ends export within its timeouts;
#  4. a process of three threads: one resource, the process's, each
#     record with its thread's id; --resource pairs replacing built-in
#     ones, each key once.
# kernel_export_tls.sh, _wire.sh and _config.sh test the rest, each in a
# guest of its own, so that none comes near the guest's time limit.
. "${top_srcdir:-.}/tests/export/export_lib.sh"

# 1. An outage: 503 twice, then 200.
start_receiver outage --answers 503,503
start_export outage --endpoint "$url" --batch-delay 300 --backoff-initial 300 \
	--resource test.run=1
logs wanted 1 4 1 "warning to user" $linger
p1=$lpid
logs other 16 3 3 "err to local0" $linger
p2=$lpid
logs wanted 3 6 1 "$long" $linger
p3=$lpid
await_records outage 5
stop_export outage

{
	echo "R: $(res $p1 wanted ' test.run="1"') | S: 13 warning | B: \"warning to user\" | A: $(attrs wanted 1 $p1) | T: ok"
	for i in 1 2 3; do
		echo "R: $(res $p2 other ' test.run="1"') | S: 17 err | B: \"err to local0 $i\" | A: $(attrs other 16 $p2) | T: ok"
	done
	echo "R: $(res $p3 wanted ' test.run="1"') | S: 9 info | B: \"$long\" | A: $(attrs wanted 3 $p3) | T: ok"
} >"$T/outage.want"
expect_same "outage: the records" "$T/outage.want" "$T/outage/records"
checks=$((checks + 1))
sed -n '1p;2p' "$T/outage/requests" | grep -qvx '503 [0-9]* "warning to user"' &&
	fail "outage: the first two requests were not 503s of the batch from the first record: $(cat "$T/outage/requests")"
checks=$((checks + 1))
sed -n '3p' "$T/outage/requests" | grep -qx '200 [0-9]* "warning to user"' ||
	fail "outage: the third request was not the same batch, taken: $(cat "$T/outage/requests")"
expect_line outage.err "ehsyslog export: the collector answered 503; retrying"
expect_line outage.err "ehsyslog export: the collector takes records again"
expect_line outage.err "ehsyslog export: 5 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
no_leftovers "after export"

# 2. A full queue while the collector is away, then the count as a record.
start_receiver full --answers 503
start_export full --endpoint "$url" --queue-size 5 --batch-delay 300 --backoff-initial 1000
logs burst 1 6 8 "burst" $linger
await_records full 6
stop_export full
{
	for i in 1 2 3 4 5; do
		echo "R: $(res $lpid burst) | S: 9 info | B: \"burst $i\" | A: $(attrs burst 1 $lpid) | T: ok"
	done
	echo "R: host.name=\"$host\" process.executable.name=\"ehsyslog\" process.pid=$xpid service.name=\"ehsyslog-export\" | S: 13 warning | B: \"ehsyslog export: 3 records dropped (queue full or refused), 0 events lost by the trace buffer\" | A:  | T: ok"
} >"$T/full.want"
expect_same "full: the records and the drop notice" "$T/full.want" "$T/full/records"
expect_line full.err "ehsyslog export: 6 records sent, 3 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"

# 3. A receiver that never answers.
start_receiver never --never
start_export never --endpoint "$url" --queue-size 5 --batch-delay 100 \
	--request-timeout 1000 --flush-timeout 1000
logs silent 1 6 20 "unheard"
sleep 1
stop_export never
expect_line never.err "ehsyslog export: Timeout was reached; retrying"
expect_line never.err "ehsyslog export: 0 records sent, 15 dropped (queue full or refused), 5 unsent at exit, 0 events lost by the trace buffer"

# 4. A process of three threads (the main one, worker-1, worker-2), with
# --resource pairs that replace built-in ones (threads_want says which).
start_receiver threads
start_export threads --endpoint "$url" --batch-delay 2000 \
	--resource service.name=first --resource host.name=box --resource k=1 \
	--resource service.name=renamed --resource k=2
logs threaded 1 6 1 "hello" $linger 2 >"$T/threaded.tids"
await_records threads 3
stop_export threads
threads_want threaded "$lpid" "$T/threaded.tids" >"$T/threads.want"
expect_same "threads: one process's records" "$T/threads.want" "$T/threads/records"
echo 3 >"$T/threads.resources.want"
expect_same "threads: one resource" "$T/threads.resources.want" "$T/threads/resources"

no_leftovers "at the end"
finish
