#!/bin/sh
# Readers in containers on user_events (tests/cli/ns_readers.sh says
# what), in one boot of a kernel with user_events.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"

in_kernel "$0" "$@"
command -v unshare >/dev/null && command -v pgrep >/dev/null || skip "no unshare or pgrep"
unshare -m -p -f --mount-proc true 2>/dev/null || skip "no PID namespaces here"

export EHSYSLOG_RUNTIME_DIR="$T/run"
TRANSPORT=
LAST_EVENT=user_events/Syslog_L5K8
. "${top_srcdir:-.}/tests/cli/ns_readers.sh"
no_leftovers "at the end"
finish
