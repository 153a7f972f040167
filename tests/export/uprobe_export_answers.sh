#!/bin/sh
# ehsyslog export against collectors that refuse, throttle and misbehave,
# on this machine's kernel through the uprobe transport (as
# uprobe_export.sh; export's HTTP side does not depend on the transport):
# a 401, a 307 and a 413 drop their batch, said once each with the
# collector's google.rpc.Status message (protobuf or JSON), and status
# shows the collector dropping with that message; Retry-After 0 is no
# flood and 10^10 no stall; a batch retried past --max-elapsed-time is given up, counted;
# an answer over 100 KiB drops its batch; --batch-bytes keeps every
# request within it; --logs-endpoint is posted to as it is.
. "${top_srcdir:-.}/tests/export/uprobe_export_lib.sh"

# requests NAME N: the receiver NAME has had N requests.
requests() {
	wait_until 60 sh -c "[ \$(wc -l <'$T/$1/requests') -ge $2 ]" ||
		fail "$1: $2 requests expected; got $(cat "$T/$1/requests")"
}

# status_says LINE: ehsyslog status prints LINE (into $T/status.out).
# shellcheck disable=SC2317 # called through wait_until
status_says() {
	"$EHSYSLOG" status >"$T/status.out" 2>"$T/status.err"
	grep -qxF -- "$1" "$T/status.out"
}

# status_block NAME: export's block of the last status, times as TIME,
# into $T/NAME.got; each time must lie between the test's start and now.
status_block() {
	export_blocks "$T/status.out" >"$T/$1.raw"
	now=$(date +%s)
	grep -o '[0-9-]*T[0-9:]*Z' "$T/$1.raw" | while read -r t; do
		s=$(date -u -d "$(echo "$t" | tr T ' ' | tr -d Z)" +%s)
		if [ "$s" -lt $((since / 1000000000)) ] || [ "$s" -gt "$now" ]; then
			echo "$t"
		fi
	done >"$T/$1.badtimes"
	checks=$((checks + 1))
	[ ! -s "$T/$1.badtimes" ] ||
		fail "$1: times not within the test ($since .. $now): $(cat "$T/$1.badtimes")"
	sed 's/[0-9-]*T[0-9:]*Z/TIME/g' "$T/$1.raw" >"$T/$1.got"
}

# gaps NAME: the milliseconds between the receiver's arrivals, one a line.
gaps() {
	awk 'NR > 1 { printf "%d\n", ($1 - last) / 1000000 } { last = $1 }' "$T/$1/arrivals"
}

# bodies NAME: the receiver's records' bodies, one a line.
bodies() {
	sed 's/.* | B: \(.*\) | A: .*/\1/' "$T/$1/records"
}

# 1. Refusals: 401 twice, 307, 413, each with a google.rpc.Status; then 200.
start_receiver refused --answers 401,401,307,413 --status-message "invalid token"
start_export refused --uprobes="$LIB" --endpoint "$url" --batch-delay 100
logs refused 1 6 1 "first"
requests refused 1
logs refused 1 6 1 "second"
requests refused 2
wait_until 60 status_says "  records      0 sent, 2 dropped (queue full or refused), 0 unsent" ||
	fail "refused: status does not show 2 dropped: $(cat "$T/status.out" "$T/status.err")"
status_block refused.status
{
	echo "export:        running, pid $xpid, to $url/v1/logs"
	echo "  collector    dropping (every batch since the last one taken was dropped)"
	echo "  last answer  HTTP 401 at TIME"
	echo "  message      invalid token"
	echo "  records      0 sent, 2 dropped (queue full or refused), 0 unsent"
	echo "  dropped      0 queue full, 2 refused, 0 rejected in a partial success, 0 given up after retries"
	echo "  last drop    TIME: 1 record: the collector answered 401: invalid token"
	echo "  lost         0 events by the trace buffer"
	echo "  last error   the collector answered 401: invalid token"
} >"$T/refused.status.want"
expect_same "refused: status while the collector refuses" "$T/refused.status.want" \
	"$T/refused.status.got"
logs refused 1 6 1 "third"
requests refused 3
logs refused 1 6 1 "fourth"
requests refused 4
logs refused 1 6 1 "fifth"
# The fifth, then export's own record of the four dropped.
await_records refused 2
stop_export refused
printf '%s\n' '401 1 "first"' '401 1 "second"' '307 1 "third"' '413 1 "fourth"' '200 1 "fifth"' \
	'200 1 "ehsyslog export: 4 records dropped (queue full or refused), 0 events lost by the trace buffer"' \
	>"$T/refused.requests.want"
expect_same "refused: the requests (none followed the 307)" "$T/refused.requests.want" \
	"$T/refused/requests"
{
	echo "ehsyslog export: the collector answered 401: invalid token: dropped 1 record"
	echo "ehsyslog export: the collector answered 307: invalid token: dropped 1 record"
	echo "ehsyslog export: the collector answered 413: invalid token: dropped 1 record"
	echo "ehsyslog export: the collector takes records again"
	echo "ehsyslog export: 2 records sent, 4 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
} >"$T/refused.err.want"
expect_same "refused: stderr, each failure once" "$T/refused.err.want" "$T/refused.err"

# The same in OTLP/JSON: the Status read as JSON.
start_receiver json --encoding json --answers 403 --status-message "no \"logs\" here"
start_export json --uprobes="$LIB" --endpoint "$url" --batch-delay 100 --encoding json
logs json 1 6 1 "forbidden"
requests json 1
stop_export json
expect_line json.err 'ehsyslog export: the collector answered 403: no "logs" here: dropped 1 record'

# 2. Retry-After: 0 on three 429s: each retry still waits its backoff,
# drawn from [ceiling / 2, ceiling): 400, 800, 1600 ms ceilings (the
# upper bounds with 1 s for a loaded machine's latency).
start_receiver zero --answers 429,429,429 --retry-after 0
start_export zero --uprobes="$LIB" --endpoint "$url" --batch-delay 100 \
	--backoff-initial 400 --backoff-max 5000
logs zero 1 6 1 "throttled"
await_records zero 1
stop_export zero
printf '%s\n' '429 1 "throttled"' '429 1 "throttled"' '429 1 "throttled"' '200 1 "throttled"' \
	>"$T/zero.requests.want"
expect_same "Retry-After 0: the requests" "$T/zero.requests.want" "$T/zero/requests"
gaps zero >"$T/zero.gaps"
checks=$((checks + 1))
awk 'NR == 1 && ($1 < 200 || $1 >= 1400) { bad = 1 }
     NR == 2 && ($1 < 400 || $1 >= 1800) { bad = 1 }
     NR == 3 && ($1 < 800 || $1 >= 2600) { bad = 1 }
     END { exit bad || NR != 3 }' "$T/zero.gaps" ||
	fail "Retry-After 0: the waits (ms) are not the backoff's: $(cat "$T/zero.gaps")"
expect_line zero.err "ehsyslog export: the collector answered 429; retrying"

# 3. Retry-After: 10^10 s on a 503: waited --backoff-max (1000 ms) at most.
start_receiver huge --answers 503 --retry-after 10000000000
start_export huge --uprobes="$LIB" --endpoint "$url" --batch-delay 100 \
	--backoff-initial 200 --backoff-max 1000
logs huge 1 6 1 "later"
await_records huge 1
stop_export huge
printf '%s\n' '503 1 "later"' '200 1 "later"' >"$T/huge.requests.want"
expect_same "Retry-After 10^10: the requests" "$T/huge.requests.want" "$T/huge/requests"
checks=$((checks + 1))
gap=$(gaps huge)
if [ "$gap" -lt 1000 ] || [ "$gap" -ge 2500 ]; then
	fail "Retry-After 10^10: waited $gap ms, not --backoff-max's 1000"
fi

# 4. A batch retried past --max-elapsed-time: given up, counted, shown.
start_receiver doomed --answers "$(printf '503,%.0s' $(seq 60))503"
start_export doomed --uprobes="$LIB" --endpoint "$url" --batch-delay 100 \
	--backoff-initial 100 --backoff-max 200 --max-elapsed-time 1500
logs doomed 1 6 1 "doomed"
wait_until 60 status_says "  dropped      0 queue full, 0 refused, 0 rejected in a partial success, 1 given up after retries" ||
	fail "doomed: status does not show the batch given up: $(cat "$T/status.out" "$T/status.err")"
status_block doomed.status
expect_line doomed.status.got "  collector    dropping (every batch since the last one taken was dropped)"
expect_line doomed.status.got "  last answer  HTTP 503 at TIME"
stop_export doomed
checks=$((checks + 1))
grep -qvx '503 1 "doomed"' "$T/doomed/requests" &&
	fail "doomed: a request not a 503 of the batch: $(cat "$T/doomed/requests")"
checks=$((checks + 1))
span=$(awk 'NR == 1 { first = $1 } { last = $1 } END { printf "%d", (last - first) / 1000000 }' \
	"$T/doomed/arrivals")
# The last try comes no later than 1500 ms after the first failed (300
# for latency), and no earlier than a longest wait (200, and 50 for
# latency) before that.
if [ "$span" -lt 1250 ] || [ "$span" -gt 1800 ]; then
	fail "doomed: retried for $span ms, not for the 1500 allowed"
fi
sed 's/after [0-9]*\.[0-9] s/after S s/' "$T/doomed.err" >"$T/doomed.err.got"
{
	echo "ehsyslog export: the collector answered 503; retrying"
	echo "ehsyslog export: given up after S s of retries (the collector answered 503): dropped 1 record"
	echo "ehsyslog export: 0 records sent, 1 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
} >"$T/doomed.err.want"
expect_same "doomed: stderr" "$T/doomed.err.want" "$T/doomed.err.got"

# 5. An answer over 100 KiB (a partial success with a 100 KiB message):
# an error, the batch dropped, never taken as a success.
start_receiver big --big-answer
start_export big --uprobes="$LIB" --endpoint "$url" --batch-delay 100
logs big 1 6 1 "answered at length"
requests big 1
logs big 1 6 1 "answered briefly"
requests big 3
stop_export big
printf '%s\n' '200 1 "answered at length"' '200 1 "answered briefly"' \
	'200 1 "ehsyslog export: 1 record dropped (queue full or refused), 0 events lost by the trace buffer"' \
	>"$T/big.requests.want"
expect_same "big answer: the requests" "$T/big.requests.want" "$T/big/requests"
{
	echo "ehsyslog export: the collector's answer (200) is over 64 KiB, the most read: dropped 1 record"
	echo "ehsyslog export: the collector takes records again"
	echo "ehsyslog export: 2 records sent, 1 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
} >"$T/big.err.want"
expect_same "big answer: stderr" "$T/big.err.want" "$T/big.err"

# 6. --batch-bytes 800 (a record is about 330 bytes here): eight records
# queued together go in requests of 800 bytes at most, more than one in
# some, all in order; --logs-endpoint: its path as given.
start_receiver bytes --path /custom/logs
start_export bytes --uprobes="$LIB" --logs-endpoint "$url/custom/logs" --batch-delay 500 \
	--batch-bytes 800
logs bytes 1 6 8 "a record of some forty bytes or so, numbered"
await_records bytes 8
stop_export bytes
for i in 1 2 3 4 5 6 7 8; do
	echo "\"a record of some forty bytes or so, numbered $i\""
done >"$T/bytes.want"
bodies bytes >"$T/bytes.got"
expect_same "batch bytes: the records, in order" "$T/bytes.want" "$T/bytes.got"
checks=$((checks + 1))
awk '$1 > 800 { bad = 1 } END { exit bad || NR < 3 }' "$T/bytes/sizes" ||
	fail "batch bytes: request sizes not all within 800, or fewer than 3: $(cat "$T/bytes/sizes")"
checks=$((checks + 1))
grep -qv '^200 [0-9]* "[^"]*"$' "$T/bytes/requests" &&
	fail "batch bytes: a request refused or to another path: $(cat "$T/bytes/requests")"
checks=$((checks + 1))
grep -q '^200 [2-9] ' "$T/bytes/requests" ||
	fail "batch bytes: no request of several records: $(cat "$T/bytes/requests")"
expect_line bytes.err "ehsyslog export: 8 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
finish
