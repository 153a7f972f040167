#!/bin/sh
# Readers in containers on the uprobe transport (tests/cli/ns_readers.sh
# says what), on this machine's kernel in a private mount namespace with
# a fresh tracefs; then the uprobe events the killed container's tail
# defined, noted as its own, go with the cleanup after the host's tail.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/kernel_logger.sh"
[ -x "$LOGGER" ] || skip "$LOGGER not built"
command -v unshare >/dev/null && command -v pgrep >/dev/null || skip "no unshare or pgrep"
in_namespace "$0" "$@"
unshare -m -p -f --mount-proc true 2>/dev/null || skip "no PID namespaces here"

own_library "$T/libehsyslog.so.0"
TRANSPORT=--uprobes=$LIB
LAST_EVENT=$GROUP/verbose
. "${top_srcdir:-.}/tests/cli/ns_readers.sh"

# The container's tail defined the events: its note stayed through
# every reader above, and goes with its events now.
checks=$((checks + 1))
[ "$(ls "$T/run")" = "uprobes-${ct_inst##*/ehsyslog-tail-}" ] ||
	fail "the notes of uprobe events: $(ls "$T/run")"
expect 0 "$EHSYSLOG" cleanup
expect_all_removed
finish
