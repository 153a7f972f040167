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
#  4. https with a CA made for the test, and a header from --header-file;
#  5. a 503 with Retry-After: 2 delays the retry by 2 s, not the backoff's
#     0.1 s;
#  6. settings from the [export] section of the configuration file, the
#     command line over them; ehsyslog status shows the running export's
#     counters, and after a SIGKILL the state it left as stale.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
# The system's python3 and protoc, not a developer's (pyenv shims).
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH
command -v protoc >/dev/null || skip "no protoc (protobuf-compiler)"
python3 -c 'import google.protobuf' 2>/dev/null || skip "no python3-protobuf"
in_kernel "$0" "$@"

RECEIVER="python3 $top_srcdir/tests/export/otlp_receiver.py --proto $top_srcdir/proto"
# Export's counters for status (6.) go here, not to the machine's /run.
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
	url=http://127.0.0.1:$(cat "$w/port")
}

# start_export NAME ARG...: export in the background, stderr in
# $T/NAME.err, pid in $xpid; returns once its tracepoints are enabled.
start_export() {
	name=$1
	shift
	"$EHSYSLOG" export "$@" >"$T/$name.out" 2>"$T/$name.err" &
	xpid=$!
	wait_until 60 enabled_in $xpid Syslog_L5K800000 ||
		fail "export $name did not enable its tracepoints: $(cat "$T/$name.err")"
}

# gone PID: the process has exited (a zombie not yet waited for too).
# shellcheck disable=SC2317 # called through wait_until
gone() {
	! [ -e "/proc/$1/stat" ] || grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat"
}

# stop_export NAME: SIGTERM, and export exits 0 within 10 s.
stop_export() {
	kill -TERM $xpid
	checks=$((checks + 1))
	wait_until 10 gone $xpid || fail "export $1 still runs 10 s after SIGTERM"
	xrc=0
	wait $xpid || xrc=$?
	[ "$xrc" = 0 ] || fail "export $1 exited $xrc: $(cat "$T/$1.err")"
	expect_empty "$1.out"
}

# Seconds a logger stays after its calls: export reads process.executable.name
# from /proc/PID/comm when it reads the event, and while it waits on a
# 503 or a slow handshake (much slower under ASan) it reads nothing.
linger=6

# 1. An outage: 503 twice, then 200.
start_receiver outage --answers 503,503
start_export outage --endpoint "$url" --batch-delay 300 --backoff-initial 300 \
	--resource test.run=1
long="long $(printf 'abcdefghij%.0s' $(seq 1000))"
logs wanted 1 4 1 "warning to user" $linger
p1=$lpid
logs other 16 3 3 "err to local0" $linger
p2=$lpid
logs wanted 3 6 1 "$long" $linger
p3=$lpid
wait_until 60 sh -c "[ \$(wc -l <'$T/outage/records') -ge 5 ]" ||
	fail "outage: 5 records expected; got $(cat "$T/outage/records"); requests: $(cat "$T/outage/requests")"
stop_export outage
kill $rpid

res() { # PID IDENT [MORE]
	printf 'host.name="%s" process.executable.name="kernel_logger" process.pid=%s service.name="%s"%s' \
		"$host" "$1" "$2" "${3:-}"
}
attrs() { # IDENT FACILITY-CODE FACILITY PID
	printf 'errno=2 eventheader.event_name="%s" eventheader.provider="Syslog" syslog.facility.code=%s syslog.facility.name="%s" thread.id=%s' \
		"$1" "$2" "$3" "$4"
}
{
	echo "R: $(res $p1 wanted ' test.run="1"') | S: 13 warning | B: \"warning to user\" | A: $(attrs wanted 1 user $p1) | T: ok"
	for i in 1 2 3; do
		echo "R: $(res $p2 other ' test.run="1"') | S: 17 err | B: \"err to local0 $i\" | A: $(attrs other 16 local0 $p2) | T: ok"
	done
	echo "R: $(res $p3 wanted ' test.run="1"') | S: 9 info | B: \"$long\" | A: $(attrs wanted 3 daemon $p3) | T: ok"
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
wait_until 60 sh -c "[ \$(wc -l <'$T/full/records') -ge 6 ]" ||
	fail "full: 6 records expected; got $(cat "$T/full/records"); requests: $(cat "$T/full/requests")"
stop_export full
kill $rpid
{
	for i in 1 2 3 4 5; do
		echo "R: $(res $lpid burst) | S: 9 info | B: \"burst $i\" | A: $(attrs burst 1 user $lpid) | T: ok"
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
kill $rpid
expect_line never.err "ehsyslog export: Timeout was reached; retrying"
expect_line never.err "ehsyslog export: 0 records sent, 15 dropped (queue full or refused), 5 unsent at exit, 0 events lost by the trace buffer"

# 4. TLS: a CA and a server certificate for 127.0.0.1, made now.
printf 'subjectAltName=IP:127.0.0.1\n' >"$T/san"
if ! openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=ehsyslog-test-ca \
	-keyout "$T/ca.key" -out "$T/ca.pem" 2>"$T/openssl.err" ||
	! openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
		-keyout "$T/server.key" -out "$T/server.csr" 2>>"$T/openssl.err" ||
	! openssl x509 -req -in "$T/server.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
		-CAcreateserial -days 1 -extfile "$T/san" -out "$T/server.pem" 2>>"$T/openssl.err" ||
	! openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=ehsyslog-test-other-ca \
		-keyout "$T/other-ca.key" -out "$T/other-ca.pem" 2>>"$T/openssl.err"; then
	fail "openssl could not make the test certificates: $(cat "$T/openssl.err")"
fi
printf '# the token stays off the command line\nAuthorization: Bearer t0ken\n' >"$T/headers"
start_receiver tls --tls "$T/server.pem" "$T/server.key"
url=https://127.0.0.1:$(cat "$T/tls/port")
start_export tls --endpoint "$url" --cacert "$T/ca.pem" --header-file "$T/headers" \
	--batch-delay 100
logs secure 1 5 1 "over tls" $linger
wait_until 60 test -s "$T/tls/records" ||
	fail "tls: no record; requests: $(cat "$T/tls/requests"); export: $(cat "$T/tls.err")"
stop_export tls
kill $rpid
echo "R: $(res $lpid secure) | S: 10 notice | B: \"over tls\" | A: $(attrs secure 1 user $lpid) | T: ok" >"$T/tls.want"
expect_same "tls: the record" "$T/tls.want" "$T/tls/records"
echo '200 1 "over tls" authorization=Bearer t0ken' >"$T/tls.requests.want"
expect_same "tls: the request and its header" "$T/tls.requests.want" "$T/tls/requests"
# With another CA, the server is not trusted: retried, never sent. (Not
# the system's CA bundle: parsing its hundred certificates under ASan in
# the emulated guest can outlast the connect timeout.)
start_receiver untrusted --tls "$T/server.pem" "$T/server.key"
url=https://127.0.0.1:$(cat "$T/untrusted/port")
start_export untrusted --endpoint "$url" --cacert "$T/other-ca.pem" --batch-delay 100 \
	--flush-timeout 500
logs secure 1 5 1 "not trusted"
# Until the handshake has failed once: a slow guest (ASan) may not have
# tried yet after a fixed sleep, and the flush at exit would then time out.
wait_until 60 grep -qF "SSL peer certificate or SSH remote key was not OK" "$T/untrusted.err" ||
	fail "untrusted: no refused handshake: $(cat "$T/untrusted.err")"
stop_export untrusted
kill $rpid
expect_empty untrusted/requests
expect_line untrusted.err "ehsyslog export: SSL peer certificate or SSH remote key was not OK; retrying"
expect_line untrusted.err "ehsyslog export: 0 records sent, 0 dropped (queue full or refused), 1 unsent at exit, 0 events lost by the trace buffer"

# 5. Retry-After outranks the backoff.
start_receiver later --answers 503 --retry-after 2
start_export later --endpoint "$url" --batch-delay 100 --backoff-initial 100
logs patient 1 6 1 "after a while"
wait_until 60 test -s "$T/later/records" ||
	fail "later: no record; requests: $(cat "$T/later/requests")"
stop_export later
kill $rpid
expect_line later/requests '503 1 "after a while"'
expect_line later/requests '200 1 "after a while"'
checks=$((checks + 1))
gap=$(awk 'NR == 1 { a = $1 } NR == 2 { print int(($1 - a) / 1000000) }' "$T/later/arrivals")
[ "${gap:-0}" -ge 2000 ] || fail "later: the retry came ${gap:-?} ms after the 503 with Retry-After: 2"
expect_line later.err "ehsyslog export: the collector answered 503; retrying"

# 6. The configuration file, and status.  The file's endpoint is refused
# (port 1) and the command line's wins; the file's resource is sent.
start_receiver status
export EHSYSLOG_CONFIG="$T/export.conf"
printf '[export]\nendpoint = http://127.0.0.1:1\nbatch-delay = 100\nresource = via.file=yes\n' \
	>"$EHSYSLOG_CONFIG"
start_export status --endpoint "$url"
logs watched 1 6 2 "counted" $linger
# status_says LINE: ehsyslog status prints LINE (into $T/status.out).
# shellcheck disable=SC2317 # called through wait_until
status_says() {
	"$EHSYSLOG" status >"$T/status.out" 2>"$T/status.err"
	grep -qxF -- "$1" "$T/status.out"
}
wait_until 60 status_says "  records      2 sent, 0 dropped (queue full or refused), 0 unsent" ||
	fail "status: no export with 2 records sent: $(cat "$T/status.out" "$T/status.err")"
export_blocks "$T/status.out" >"$T/status.got"
{
	echo "export:        running, pid $xpid, to $url/v1/logs"
	echo "  collector    ok (takes records)"
	echo "  records      2 sent, 0 dropped (queue full or refused), 0 unsent"
	echo "  lost         0 events by the trace buffer"
} >"$T/status.want"
expect_same "status: the running export" "$T/status.want" "$T/status.got"
{
	for i in 1 2; do
		echo "R: $(res $lpid watched ' via.file="yes"') | S: 9 info | B: \"counted $i\" | A: $(attrs watched 1 user $lpid) | T: ok"
	done
} >"$T/status.records.want"
expect_same "status: the records, with the file's resource" "$T/status.records.want" \
	"$T/status/records"
# SIGKILL: no clean exit, so the state file stays, and status says stale.
kill -KILL $xpid
wait $xpid 2>/dev/null || true
expect 0 "$EHSYSLOG" status
{
	echo "export:        stale: $T/run/export-$xpid.state: its pid $xpid is gone (killed?; 'ehsyslog cleanup' removes it); it last said: to $url/v1/logs"
	echo "  collector    ok (takes records)"
	echo "  records      2 sent, 0 dropped (queue full or refused), 0 unsent"
	echo "  lost         0 events by the trace buffer"
} >"$T/stale.want"
export_blocks "$T/out" >"$T/stale.got"
expect_same "status: the killed export" "$T/stale.want" "$T/stale.got"
kill $rpid
# Its tracefs instance stays too, until a cleanup, which takes both.
expect 0 "$EHSYSLOG" cleanup
expect_line out "removed stale $T/run/export-$xpid.state (its export, pid $xpid, is gone)"
checks=$((checks + 1))
[ ! -e "$T/run/export-$xpid.state" ] || fail "cleanup left $T/run/export-$xpid.state"
EHSYSLOG_CONFIG=$T/absent.conf
no_leftovers "at the end"
finish
