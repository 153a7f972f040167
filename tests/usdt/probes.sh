#!/bin/sh
# tests/usdt/probes.py in a private mount namespace with a tracefs of its
# own: uprobes work on this machine's kernel, user_events or not.
set -u
b=${top_builddir:-.}
lib=$b/.libs/libehsyslog.so
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: uprobes need root"; exit 77; }
"${top_srcdir:-.}/scripts/tracefs-ns" --check 2>/dev/null ||
	{ echo "SKIP: no private mount namespace here: $("${top_srcdir:-.}/scripts/tracefs-ns" --check 2>&1)"; exit 77; }
# A copy of the library of its own: uprobes are per file, and another
# test's probes on the built one would raise the semaphore here too.
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cp "$(readlink -f "$lib")" "$tmp/libehsyslog.so.0" || exit 99
# probes.py reads tracefs's top instance: under the lock of the host
# tests that use it (tests/lib/top_instance.sh).
. "${top_srcdir:-.}/tests/lib/top_instance.sh"
flock "$TOP_INSTANCE_LOCK" \
	"${top_srcdir:-.}/scripts/tracefs-ns" fresh -- python3 "${top_srcdir:-.}/tests/usdt/probes.py" \
	"$tmp/libehsyslog.so.0" "$b/tests/usdt/probe_calls"
