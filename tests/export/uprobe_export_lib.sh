# shellcheck shell=sh
# What the tests of ehsyslog export through the uprobe transport
# (tests/export/uprobe_export*.sh) share.  Sourced after a test's header:
# runs the test in a private mount namespace with a fresh tracefs on
# this machine's kernel, with a copy of the library of the test's own
# (LIB, GROUP: uprobe_lib.sh) whose events export defines and enables
# (TRANSPORT); kernel_logger logs under its preload.  A test that sets
# UPROBE_PID_NS=yes first runs in a PID namespace of its own too
# (in_namespace --pid).
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/kernel_logger.sh"
. "${top_srcdir:-.}/tests/export/export_helpers.sh"
[ -x "$LOGGER" ] || skip "$LOGGER not built"
in_namespace ${UPROBE_PID_NS:+--pid} "$0" "$@"

own_library "$T/libehsyslog.so.0"
TRANSPORT=--uprobes=$LIB

# export_ready PID: export PID has its instance, with the copy's five
# events enabled in it (the tail's instance name; verbose, enabled last).
# shellcheck disable=SC2317 # called through wait_until
export_ready() {
	enabled_in_tail "$1" "$GROUP"
}

# Answers enough 503s for any test's outage.
outage=$(printf '503,%.0s' $(seq 200))503

# left_queued DIR IDENT N: the N records of "logs IDENT 1 6 N IDENT" left
# in the queue directory DIR by an export stopped during an outage, which
# says so; the logger's pid in $lpid.
left_queued() {
	start_receiver down --answers "$outage"
	start_export down "$TRANSPORT" --endpoint "$url" --queue-dir "$1" --batch-delay 300 \
		--backoff-initial 200 --backoff-max 400 --flush-timeout 0
	logs "$2" 1 6 "$3" "$2" $linger
	checks=$((checks + 1))
	wait_until 30 grep -q "^503 $3 \"$2 1\"\$" "$T/down/requests" ||
		fail "the batch was not refused: $(cat "$T/down/requests")"
	stop_export down
	expect_line down.err "ehsyslog export: $3 unsent records kept in $1 for the next run"
}

# after_export LABEL: no instance of the last export (instances are the
# kernel's: other tests' may be there), no uprobe event of the copy's
# group.
after_export() {
	checks=$((checks + 1))
	left=$(cd "$TR/instances" && ls -d "ehsyslog-tail-$xpid-"* 2>/dev/null)
	[ -z "$left" ] || fail "$1: instances left: $left"
	checks=$((checks + 1))
	[ -z "$(defined "$GROUP")" ] || fail "$1: events left: $(defined "$GROUP")"
}
