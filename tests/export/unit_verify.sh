#!/bin/sh
# debian/ehsyslog.ehsyslog-export.service: systemd-analyze verify accepts
# it (with ExecStart pointing at the built tool, as the package's would
# at /usr/bin/ehsyslog), its queue is kept in its state directory, and
# its hardening scores "OK" or better in systemd-analyze security.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

command -v systemd-analyze >/dev/null || skip "no systemd-analyze (systemd)"
unit=$T/ehsyslog-export.service
sed "s|/usr/bin/ehsyslog|$EHSYSLOG|" "$top_srcdir/debian/ehsyslog.ehsyslog-export.service" >"$unit"
checks=$((checks + 1))
grep -qx "ExecStart=$EHSYSLOG export --queue-dir /var/lib/ehsyslog/export" "$unit" ||
	fail "no ExecStart to rewrite in the unit, or not with the queue on disk"
# The queue's directory is the unit's own state directory.
checks=$((checks + 1))
grep -qx "StateDirectory=ehsyslog/export" "$unit" || fail "the queue's directory is not a StateDirectory"
# --man=no: the page is installed with the package, not on this machine.
expect 0 systemd-analyze verify --man=no "$unit"
expect_empty err
expect 0 systemd-analyze security --offline=yes "$unit"
checks=$((checks + 1))
grep -Eq 'Overall exposure level for ehsyslog-export.service: [0-9.]+ (OK|SAFE)' "$T/out" ||
	fail "the unit's exposure is not OK or SAFE: $(tail -1 "$T/out")"
finish
