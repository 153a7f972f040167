# shellcheck shell=sh
# The receiver's and export's helpers, and the wanted records' resource
# and attribute text, shared by the tests of ehsyslog export on either
# transport: export_lib.sh (user_events, in the guest) and
# uprobe_export.sh (uprobes, on this machine's kernel).  Sourced after
# the harness (kernel_lib.sh or uprobe_lib.sh), which defines
# export_ready PID; checks what the receiver needs.
# The system's python3 and protoc, not a developer's (pyenv shims).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
command -v protoc >/dev/null || skip "no protoc (protobuf-compiler)"
python3 -c 'import google.protobuf' 2>/dev/null || skip "no python3-protobuf"

RECEIVER="python3 $top_srcdir/tests/export/otlp_receiver.py --proto $top_srcdir/proto"
# Export's counters for status go here, not to the machine's /run.
EHSYSLOG_RUNTIME_DIR=$T/run
export EHSYSLOG_RUNTIME_DIR
host=$(uname -n)
since=$(date +%s%N)

# start_receiver NAME ARG...: the receiver, its files in $T/NAME/, its pid
# in $rpid, its URL in $url.
start_receiver() {
	mkdir -p "$T/$1"
	w=$T/$1
	shift
	# shellcheck disable=SC2086 # RECEIVER is words
	$RECEIVER --work "$w" --since "$since" "$@" 2>"$w/stderr" &
	rpid=$!
	wait_until 60 test -s "$w/port" || fail "receiver did not start: $(cat "$w/stderr")"
	# shellcheck disable=SC2034 # used by the tests that source this
	url=http://127.0.0.1:$(cat "$w/port")
}

# start_export NAME ARG...: export in the background, stderr in
# $T/NAME.err, pid in $xpid; returns once its tracepoints are enabled.
start_export() {
	name=$1
	shift
	"$EHSYSLOG" export "$@" >"$T/$name.out" 2>"$T/$name.err" &
	xpid=$!
	wait_until 60 export_ready $xpid ||
		fail "export $name did not enable its tracepoints: $(cat "$T/$name.err")"
}

# gone PID: the process has exited (a zombie not yet waited for too).
# shellcheck disable=SC2317 # called through wait_until
gone() {
	! [ -e "/proc/$1/stat" ] || grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat"
}

# stop_export NAME: SIGTERM, and export exits 0 within 10 s; then the
# receiver is stopped.
stop_export() {
	kill -TERM $xpid
	checks=$((checks + 1))
	# A bound for a hang, far above --flush-timeout's 5 s: a loaded
	# machine's sanitizer build takes seconds to exit.
	wait_until 60 gone $xpid || fail "export $1 still runs 60 s after SIGTERM"
	xrc=0
	wait $xpid || xrc=$?
	[ "$xrc" = 0 ] || fail "export $1 exited $xrc: $(cat "$T/$1.err")"
	expect_empty "$1.out"
	kill $rpid
	release_loggers
}

# await_records NAME N: the receiver NAME has written N records.
await_records() {
	wait_until 60 sh -c "[ \$(wc -l <'$T/$1/records') -ge $2 ]" ||
		fail "$1: $2 records expected; got $(cat "$T/$1/records"); requests: $(cat "$T/$1/requests")"
}

# How a logger stays after its calls: export finds the thread's process
# in /proc (thread_process.h) when it reads the event, and while it waits on a
# 503 or a slow handshake (much slower under ASan, or on a loaded machine) it
# reads nothing.  So every logger is held until stop_export
# (kernel_logger.sh), however long that takes.
# shellcheck disable=SC2034 # used by the tests that source this
linger=hold

res() { # PID IDENT [MORE]
	printf 'host.name="%s" process.executable.name="kernel_logger" process.pid=%s service.name="%s"%s' \
		"$host" "$1" "$2" "${3:-}"
}
attrs() { # IDENT FACILITY-CODE TID
	printf 'errno=2 eventheader.event_name="%s" eventheader.provider="Syslog" syslog.facility=%s thread.id=%s' \
		"$1" "$2" "$3"
}
# threads_want IDENT PID TIDS: the records of "kernel_logger IDENT 1 6 1
# hello LINGER 2" (pid PID, its threads' "tK TID" lines in the file TIDS)
# exported with --resource service.name=first --resource host.name=box
# --resource k=1 --resource service.name=renamed --resource k=2: the
# main thread's, then worker-1's and worker-2's, all of one resource.
threads_want() {
	r='host.name="box" k="2" process.executable.name="kernel_logger" process.pid='$2' service.name="renamed"'
	echo "R: $r | S: 9 info | B: \"hello\" | A: $(attrs "$1" 1 "$2") | T: ok"
	while read -r t tid; do
		echo "R: $r | S: 9 info | B: \"hello $t\" | A: $(attrs "$1" 1 "$tid") | T: ok"
	done <"$3"
}
# json_str TEXT ascii|utf-8: TEXT as the receiver quotes it (Python's json.dumps).
json_str() {
	python3 -c 'import json, sys; print(json.dumps(sys.argv[1], ensure_ascii=sys.argv[2] == "ascii"))' "$@"
}
# A message longer than an event: split by the library, whole in the record.
# shellcheck disable=SC2034 # used by the tests that source this
long="long $(printf 'abcdefghij%.0s' $(seq 1000))"

# The scenarios both transports' tests run (kernel_export.sh,
# uprobe_export.sh).  $TRANSPORT: export's option that picks the
# transport, or empty for user_events; after each, the harness's
# after_export LABEL checks that export left nothing behind.

# outage_scenario: 503 twice, then 200: every record arrives once, in
# the order logged, field by field, a split message whole, and the
# retried batch is the one refused.
outage_scenario() {
	start_receiver outage --answers 503,503
	start_export outage ${TRANSPORT:+"$TRANSPORT"} --endpoint "$url" --batch-delay 300 \
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
	expect_line outage.err "ehsyslog export: the collector takes records again"
	expect_line outage.err "ehsyslog export: 5 records sent, 0 dropped (queue full or refused), 0 unsent at exit, 0 events lost by the trace buffer"
	after_export "after the outage"
}

# full_queue_scenario: a full queue while the collector is away; the
# drops are counted on stderr and reported by a record once it is back.
full_queue_scenario() {
	start_receiver full --answers 503
	start_export full ${TRANSPORT:+"$TRANSPORT"} --endpoint "$url" --queue-size 5 \
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
	after_export "after the full queue"
}

# threads_scenario: a process of three threads (the main one, worker-1,
# worker-2): one resource, the process's, each record with its thread's
# id; --resource pairs replacing built-in ones (the last given of a key
# wins), each key once.
threads_scenario() {
	start_receiver threads
	start_export threads ${TRANSPORT:+"$TRANSPORT"} --endpoint "$url" --batch-delay 2000 \
		--resource service.name=first --resource host.name=box --resource k=1 \
		--resource service.name=renamed --resource k=2
	logs threaded 1 6 1 "hello" $linger 2 >"$T/threaded.tids"
	await_records threads 3
	stop_export threads
	threads_want threaded "$lpid" "$T/threaded.tids" >"$T/threads.want"
	expect_same "threads: one process's records" "$T/threads.want" "$T/threads/records"
	echo 3 >"$T/threads.resources.want"
	expect_same "threads: one resource" "$T/threads.resources.want" "$T/threads/resources"
	after_export "after the threads"
}

# gone_scenario: export stopped (SIGSTOP) while a process of three
# threads logs and exits, then let go: its records still name the
# process and its name, from what the kernel kept (saved_tgids and
# saved_cmdlines, which export's instance has it record), where /proc
# has nothing left to read.
gone_scenario() {
	start_receiver gone
	start_export gone ${TRANSPORT:+"$TRANSPORT"} --endpoint "$url" --batch-delay 300
	kill -STOP $xpid
	logs gone 1 6 1 "bye" 0 2 >"$T/gone.tids"
	checks=$((checks + 1))
	! [ -e "/proc/$lpid" ] || fail "kernel_logger $lpid is still there"
	kill -CONT $xpid
	await_records gone 3
	stop_export gone
	r='host.name="'$host'" process.executable.name="kernel_logger" process.pid='$lpid' service.name="gone"'
	{
		echo "R: $r | S: 9 info | B: \"bye\" | A: $(attrs gone 1 "$lpid") | T: ok"
		while read -r t tid; do
			echo "R: $r | S: 9 info | B: \"bye $t\" | A: $(attrs gone 1 "$tid") | T: ok"
		done <"$T/gone.tids"
	} >"$T/gone.want"
	expect_same "gone: the records of a process gone before export read them" "$T/gone.want" \
		"$T/gone/records"
	after_export "after the process was gone"
}
