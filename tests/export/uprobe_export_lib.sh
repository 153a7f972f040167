# shellcheck shell=sh
# What the tests of ehsyslog export through the uprobe transport
# (tests/export/uprobe_export*.sh) share.  Sourced after a test's header:
# runs the test in a private mount namespace with a fresh tracefs on
# this machine's kernel, with a copy of the library of the test's own
# (LIB, GROUP: uprobe_lib.sh) whose events export defines and enables
# (TRANSPORT); kernel_logger logs under its preload.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/kernel_logger.sh"
. "${top_srcdir:-.}/tests/export/export_helpers.sh"
[ -x "$LOGGER" ] || skip "$LOGGER not built"
in_namespace "$0" "$@"

own_library "$T/libehsyslog.so.0"
TRANSPORT=--uprobes=$LIB

# export_ready PID: export PID has its instance, with the copy's five
# events enabled in it (the tail's instance name; verbose, enabled last).
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
