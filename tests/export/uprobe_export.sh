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

TRANSPORT=--uprobes=$LIB
outage_scenario
full_queue_scenario
threads_scenario
finish
