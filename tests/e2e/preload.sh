#!/bin/sh
# The library loaded the three ways, in a guest whose /etc/ld.so.preload
# names it (scripts/kernel-test --ld-so-preload):
# - system-wide: a shell session of several programs (python3, su,
#   logger, our test program) behaves exactly as without the preload
#   (outputs, exit statuses) while the programs that use syslog(3)
#   produce their events;
# - a setuid-root program run by nobody gets the library from
#   /etc/ld.so.preload (LD_PRELOAD paths are ignored for it) and ignores
#   EHSYSLOG_PROVIDER: its event uses the default provider; the same
#   program without setuid, run by root, honours it;
# - LD_PRELOAD alone, and a program linked with -lehsyslog, with
#   /etc/ld.so.preload emptied.
set -u
if [ "${sanitizers:-no}" = yes ]; then
	# Every process of the session would load the ASan runtime through
	# /etc/ld.so.preload after its own libraries, which ASan refuses.
	echo "SKIP: a system-wide preload of an ASan build cannot work"
	exit 77
fi
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
e2e_boot preload.sh --ld-so-preload "$lib"

expect_eq "/etc/ld.so.preload" "$lib" "$(cat /etc/ld.so.preload)"
hex() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; }

# A session; its output must not depend on the preload.
session() {
	sh -c '
		python3 -c "import syslog; syslog.openlog(\"pysession\", 0, syslog.LOG_LOCAL3); syslog.syslog(syslog.LOG_ERR, \"python in a session\")"
		echo "python: $?"
		"$1/calls_plain" simple "in a session"
		echo "calls: $?"
		su nobody -s /bin/sh -c "id -un"
		echo "su: $?"
		logger -t session "logger writes its own datagrams, not through syslog(3)" 2>&1
		echo "logger: $?"
		ls -d / /etc; echo "ls: $?"
		grep -c . /etc/ld.so.preload
	' sh "$e2e" 2>&1
}
tail_start "$work/session" 25 --facility user,auth,authpriv,local3,local7 || exit 1
session >"$work/session.preloaded"
{
	expect_line pysession 3 19 '*' '*' "python in a session"
	expect_line calls_plain 5 1 0 '*' "simple in a session"
	expect_line su 5 4 '*' '*' "(to nobody) root on none"
	expect_line su 6 10 '*' '*' "pam_unix(su:session): session opened for user nobody(uid=65534) by (uid=0)"
	expect_line su 6 10 '*' '*' "pam_unix(su:session): session closed for user nobody"
} >"$work/session.expected"
tail_stop "$work/session" "$(wc -l <"$work/session.expected")"
compare_events "a session under /etc/ld.so.preload" "$work/session.expected" "$work/session"

# Setuid: /tmp must allow it.
case ",$(findmnt -n -o OPTIONS /tmp)," in
*,nosuid,*) fail "/tmp is mounted nosuid: no setuid test" ;;
esac
cp "$e2e/calls_plain" /tmp/e2e-suid && chown root:root /tmp/e2e-suid && chmod 4755 /tmp/e2e-suid
cp "$e2e/calls_plain" /tmp/e2e-nosuid && chmod 755 /tmp/e2e-nosuid
: >"$work/suid.expected" && chmod 666 "$work/suid.expected"
tail_start "$work/suid" 5 --facility user || exit 1
"$tool" tail --json --facility user --provider Evil >"$work/evil" 2>"$work/evil.err" &
evil=$!
tail_wait "$evil" 5 || fail "tail --provider Evil did not start: $(cat "$work/evil.err")"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
	env EHSYSLOG_PROVIDER=Evil LD_PRELOAD="$lib" E2E_EXPECT="$work/suid.expected" /tmp/e2e-suid simple setuid 2>&1)
expect_eq "setuid as nobody: exit status and output" "0 " "$? $out"
# Not setuid, root: the environment counts.
out=$(env EHSYSLOG_PROVIDER=Evil E2E_EXPECT="$work/evil.expected" /tmp/e2e-nosuid simple "not setuid" 2>&1)
expect_eq "not setuid, EHSYSLOG_PROVIDER=Evil: exit status and output" "0 " "$? $out"
# Not setuid, nobody: user_events_data is root's; silently no event.
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups env /tmp/e2e-nosuid simple nobody 2>&1)
expect_eq "nobody without permission: exit status and output" "0 " "$? $out"
tail_stop "$work/suid" 1
compare_events "setuid: default provider despite EHSYSLOG_PROVIDER" "$work/suid.expected" "$work/suid"
sleep 1
kill -INT "$evil" && wait "$evil"
compare_events "not setuid: provider from EHSYSLOG_PROVIDER" "$work/evil.expected" "$work/evil" --provider Evil

# The session again without the preload: same output.
: >/etc/ld.so.preload
session >"$work/session.plain"
sed 's/^1$/0/' "$work/session.preloaded" >"$work/session.expect-plain"
if cmp -s "$work/session.expect-plain" "$work/session.plain"; then
	pass "the session's output is the same without the preload"
else
	fail "the session's output depends on the preload"
	diff "$work/session.expect-plain" "$work/session.plain"
fi

# LD_PRELOAD alone; linked directly; neither (no event).
readelf -d "$e2e/calls_linked" | grep -q 'NEEDED.*libehsyslog\.so' ||
	fail "calls_linked does not link libehsyslog"
tail_start "$work/ways" 5 --facility user || exit 1
E2E_EXPECT=$work/ways.expected LD_PRELOAD=$lib "$e2e/calls_plain" simple LD_PRELOAD
"$e2e/calls_plain" simple "no library"
E2E_EXPECT=$work/ways.expected "$e2e/calls_linked" simple linked
tail_stop "$work/ways" 2
compare_events "LD_PRELOAD and -lehsyslog, nothing without" "$work/ways.expected" "$work/ways"

e2e_finish
