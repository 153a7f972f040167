#!/bin/sh
# ehsyslog export's settings from the [export] section of the
# configuration file, the command line over them; ehsyslog status on the
# running export's counters, and after a SIGKILL on the state it left as
# stale; cleanup removing it.  In a kernel with user_events (one guest
# boot; export_lib.sh).
. "${top_srcdir:-.}/tests/export/export_lib.sh"

# The configuration file, and status.  The file's endpoint is refused
# (port 1) and the command line's wins; the file's resources are sent,
# but for service.name, which the command line's replaces.
start_receiver status
export EHSYSLOG_CONFIG="$T/export.conf"
printf '[export]\nendpoint = http://127.0.0.1:1\nbatch-delay = 100\nresource = via.file=yes\nresource = service.name=from.file\n' \
	>"$EHSYSLOG_CONFIG"
start_export status --endpoint "$url" --resource service.name=from.cli
logs watched 1 6 2 "counted" $linger
# status_says LINE: ehsyslog status prints LINE (into $T/status.out).
# shellcheck disable=SC2317 # called through wait_until
status_says() {
	"$EHSYSLOG" status >"$T/status.out" 2>"$T/status.err"
	grep -qxF -- "$1" "$T/status.out"
}
wait_until 60 status_says "  records      2 sent, 0 dropped (queue full or refused), 0 unsent" ||
	fail "status: no export with 2 records sent: $(cat "$T/status.out" "$T/status.err")"
# The time of the last answer varies: TIME.
export_blocks "$T/status.out" | sed 's/at [0-9-]*T[0-9:]*Z$/at TIME/' >"$T/status.got"
{
	echo "export:        running, pid $xpid, to $url/v1/logs"
	echo "  collector    ok (takes records)"
	echo "  last answer  HTTP 200 at TIME"
	echo "  records      2 sent, 0 dropped (queue full or refused), 0 unsent"
	echo "  lost         0 events by the trace buffer"
} >"$T/status.want"
expect_same "status: the running export" "$T/status.want" "$T/status.got"
{
	for i in 1 2; do
		echo "R: host.name=\"$host\" process.executable.name=\"kernel_logger\" process.pid=$lpid service.name=\"from.cli\" via.file=\"yes\" | S: 9 info | B: \"counted $i\" | A: $(attrs watched 1 $lpid) | T: ok"
	done
} >"$T/status.records.want"
expect_same "status: the records, with the file's resources, service.name the command line's" "$T/status.records.want" \
	"$T/status/records"
# SIGKILL: no clean exit, so the state file stays, and status says stale.
kill -KILL $xpid
wait $xpid 2>/dev/null || true
expect 0 "$EHSYSLOG" status
{
	echo "export:        stale: $T/run/export-$xpid.state: its pid $xpid is gone (killed?; 'ehsyslog cleanup' removes it); it last said: to $url/v1/logs"
	echo "  collector    ok (takes records)"
	echo "  last answer  HTTP 200 at TIME"
	echo "  records      2 sent, 0 dropped (queue full or refused), 0 unsent"
	echo "  lost         0 events by the trace buffer"
} >"$T/stale.want"
export_blocks "$T/out" | sed 's/at [0-9-]*T[0-9:]*Z$/at TIME/' >"$T/stale.got"
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
