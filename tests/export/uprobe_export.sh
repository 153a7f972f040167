#!/bin/sh
# ehsyslog export through the uprobe transport, on this machine's kernel
# (uprobe events, no user_events), in a private mount namespace with a
# fresh tracefs: kernel_logger logs under the preload of the test's own
# copy of the library, export defines and enables that copy's uprobe
# events (--uprobes=LIB), and the receiver decodes every request with the
# official OTLP definitions.  The records must be the ones the same calls
# give through user_events (tests/export/kernel_export.sh, whose wanted
# text this test shares): resource, severity, body, attributes, a split
# message whole; through an outage (503, 503, then 200) and a full queue
# whose drops are reported; a multithreaded process's records in one
# resource, with --resource pairs replacing built-in ones.  Nothing is
# left defined after export exits.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/kernel_logger.sh"
. "${top_srcdir:-.}/tests/export/export_helpers.sh"
[ -x "$LOGGER" ] || skip "$LOGGER not built"
in_namespace "$0" "$@"

own_library "$T/libehsyslog.so.0"

# export_ready PID: export PID has its instance, with the copy's five
# events enabled in it (the tail's instance name; critical is the last).
# shellcheck disable=SC2317 # called through wait_until
export_ready() {
	enabled_in_tail "$1" "$GROUP"
}

# nothing_left LABEL: no instance of the last export (instances are the
# kernel's: other tests' may be there), no uprobe event of the copy's
# group.
nothing_left() {
	checks=$((checks + 1))
	left=$(cd "$TR/instances" && ls -d "ehsyslog-tail-$xpid-"* 2>/dev/null)
	[ -z "$left" ] || fail "$1: instances left: $left"
	checks=$((checks + 1))
	[ -z "$(defined "$GROUP")" ] || fail "$1: events left: $(defined "$GROUP")"
}

# 1. An outage: 503 twice, then 200.
start_receiver outage --answers 503,503
start_export outage --uprobes="$LIB" --endpoint "$url" --batch-delay 300 \
	--backoff-initial 300 --resource test.run=1
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
expect_line outage.err "ehsyslog export: 5 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
nothing_left "after export"

# 2. A full queue while the collector is away, then the count as a record.
start_receiver full --answers 503
start_export full --uprobes="$LIB" --endpoint "$url" --queue-size 5 \
	--batch-delay 300 --backoff-initial 1000
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
nothing_left "after the full queue"

# 3. A process of three threads (the main one, worker-1, worker-2): one
# resource, the process's (its pid, its executable's name, not the
# threads'), each record with its thread's id; and --resource pairs
# replacing built-in ones (the last given of a key wins), each key once.
start_receiver threads
start_export threads --uprobes="$LIB" --endpoint "$url" --batch-delay 2000 \
	--resource service.name=first --resource host.name=box --resource k=1 \
	--resource service.name=renamed --resource k=2
logs threaded 1 6 1 "hello" $linger 2 >"$T/threaded.tids"
await_records threads 3
stop_export threads
threads_want threaded "$lpid" "$T/threaded.tids" >"$T/threads.want"
expect_same "threads: one process's records" "$T/threads.want" "$T/threads/records"
echo 3 >"$T/threads.resources.want"
expect_same "threads: one resource" "$T/threads.resources.want" "$T/threads/resources"
nothing_left "at the end"
finish
