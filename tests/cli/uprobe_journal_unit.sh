#!/bin/sh
# The unit's name in every event of a process that runs in a systemd
# service, under Debian's real journald (tests/cli/journal_lib.sh), read
# back through the uprobe transport by tail and by export at once: a
# python3 service launched into its unit's cgroup as systemd launches it
# (journal_launch.py --cgroup), its output lines and a syslog() call;
# a user's service nested below its manager's (the inner unit); and a
# process outside any service (no unit).  The events are read after the
# processes exited, as a reader that lags does: the unit is in each
# event (the "unit" field) and in export's records' resource
# (systemd.unit.name), and journald's entries name the same unit.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/cli/journal_lib.sh"
in_namespace --pid "$0" "$@"
. "${top_srcdir:-.}/tests/export/export_helpers.sh"
start_journald
own_library "$T/libehsyslog.so.0"
service_cgroup demo.service
demo=$CGROUP_DIR
service_cgroup user@1000.service/app.slice/worker.service
worker=$CGROUP_DIR

# shellcheck disable=SC2317 # called through start_export's wait_until
export_ready() {
	enabled_in_tail "$1" "$GROUP"
}
# stop_export's, for kernel_logger's held processes: none here.
release_loggers() { :; }
start_receiver rx
start_export rx --uprobes="$LIB" --endpoint "$url" --batch-delay 100
"$EHSYSLOG" tail --uprobes="$LIB" --timeout 600 --json >"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" verbose ||
	fail "tail did not enable $GROUP: $(cat "$T/tail.err")"
"$EHSYSLOG" tail --uprobes="$LIB" --timeout 600 >"$T/text.out" 2>"$T/text.err" &
text_pid=$!
wait_until 60 enabled_in_tail $text_pid "$GROUP" verbose ||
	fail "the text tail did not enable $GROUP: $(cat "$T/text.err")"

LD_PRELOAD=$PRELOAD python3 "$LAUNCH" --cgroup "$demo" unit-svc demo.service \
	python3 "$SERVICE" unit || fail "the service exited $?"
# in_cgroup DIR COMMAND...: COMMAND run in the cgroup DIR.
in_cgroup() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$@"
}
in_cgroup "$demo" env LD_PRELOAD="$PRELOAD" python3 -c '
import syslog; syslog.openlog("unitlog"); syslog.syslog("from the service")' ||
	fail "the service's syslog() exited $?"
in_cgroup "$worker" env LD_PRELOAD="$PRELOAD" python3 -c '
import syslog; syslog.openlog("workerlog"); syslog.syslog("from a user service")' ||
	fail "the user service's syslog() exited $?"
LD_PRELOAD=$PRELOAD python3 -c '
import syslog; syslog.openlog("outside"); syslog.syslog("from no service")'
LD_PRELOAD=$PRELOAD python3 -c 'import syslog; syslog.openlog("marker"); syslog.syslog("all done")'
wait_until 120 grep -q '"message":"all done"' "$T/tail.out" ||
	fail "tail did not print the marker: $(cat "$T/tail.err")"
wait_until 120 grep -q ' all done$' "$T/text.out" ||
	fail "the text tail did not print the marker: $(cat "$T/text.err")"
kill -INT $tail_pid $text_pid
wait $tail_pid || fail "tail exited $? after SIGINT: $(cat "$T/tail.err")"
wait $text_pid || fail "the text tail exited $? after SIGINT: $(cat "$T/text.err")"
expect_quiet tail.err
expect_quiet text.err
# Text: the unit among the extras.
checks=$((checks + 1))
grep -q ' from the service \[unit="demo.service"\]$' "$T/text.out" ||
	fail "the text line has not the unit: $(grep "from the service" "$T/text.out")"
checks=$((checks + 1))
grep -q ' from no service$' "$T/text.out" ||
	fail "a text line outside any service: $(grep "from no service" "$T/text.out")"

# The events: each of the service's with its unit, the others' without.
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["n"] != "Syslog:marker":
        print("%s %s" % (e["n"], e.get("unit", "-")))' "$T/tail.out" |
	sort | uniq -c | sed 's/^ *//' | sort >"$T/units"
n=$(service_entries unit | wc -l)
printf '%s\n' "$n Syslog:python3 demo.service" "1 Syslog:outside -" "1 Syslog:unitlog demo.service" \
	"1 Syslog:workerlog worker.service" | sort >"$T/units.want"
expect_same "the events' units" "$T/units.want" "$T/units"

# export's records: the unit in the resource, after the processes left.
await_records rx $((n + 4))
stop_export rx
for who in "from the service|demo.service" "from a user service|worker.service" \
	"unit buffered one|demo.service"; do
	body=${who%|*} unit=${who#*|}
	checks=$((checks + 1))
	grep -F "B: \"$body\"" "$T/rx/records" | grep -qF "systemd.unit.name=\"$unit\"" ||
		fail "export's record of '$body' has not the unit $unit: $(grep -F "$body" "$T/rx/records")"
done
checks=$((checks + 1))
! grep -F 'B: "from no service"' "$T/rx/records" | grep -q "systemd.unit.name" ||
	fail "a record outside any service names a unit: $(grep -F "from no service" "$T/rx/records")"

# journald's entries of the service name the same unit.
stop_journald
journalctl -D /run/log/journal -o json --all --no-pager SYSLOG_IDENTIFIER=unit-svc |
	python3 -c '
import json, sys
print("\n".join(sorted({json.loads(l).get("_SYSTEMD_UNIT", "-") for l in sys.stdin})))' >"$T/journal.units"
echo demo.service >"$T/journal.units.want"
expect_same "journald's unit of the service's entries" "$T/journal.units.want" "$T/journal.units"
finish
