# shellcheck shell=sh
# Shared by the output stream tests: sourced, not run.  Debian's real
# systemd-journald, started by the test in its own mount namespace (the
# caller's: private already) with a tmpfs on /run and /var/log, as in
# FACTS.md 2d; its stream socket is /run/systemd/journal/stdout, its
# volatile journal /run/log/journal.  Needs admin_lib.sh.
JOURNALD=/lib/systemd/systemd-journald
LAUNCH=$top_srcdir/tests/cli/journal_launch.py
SERVICE=$top_srcdir/tests/cli/journal_service.py

# start_journald: journald running and listening, its pid in $journald;
# skips where it cannot run.
start_journald() {
	[ -x "$JOURNALD" ] || skip "no $JOURNALD (Debian's systemd package)"
	command -v journalctl >/dev/null 2>&1 || skip "no journalctl (Debian's systemd package)"
	command -v systemd-cat >/dev/null 2>&1 || skip "no systemd-cat (Debian's systemd package)"
	mount -t tmpfs none /run 2>"$T/mount.err" && mount -t tmpfs none /var/log 2>>"$T/mount.err" ||
		skip "no tmpfs for journald's /run here: $(cat "$T/mount.err")"
	mkdir -p /run/systemd/journal /run/log/journal
	"$JOURNALD" >"$T/journald.out" 2>&1 &
	journald=$!
	wait_until 60 test -S /run/systemd/journal/stdout ||
		fail "journald made no stream socket: $(cat "$T/journald.out")"
}

# stop_journald: journald stopped (it flushes what it read).
stop_journald() {
	kill "$journald" 2>/dev/null
	wait "$journald" 2>/dev/null || :
}

# journal_entries IDENT: what the journal holds for SYSLOG_IDENTIFIER
# IDENT, an entry a line: PRIORITY, a tab, MESSAGE (Python's repr, so
# that every byte shows).
journal_entries() {
	journalctl -D /run/log/journal -o json --all --no-pager SYSLOG_IDENTIFIER="$1" |
		python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    m = e.get("MESSAGE")
    if isinstance(m, list):
        m = bytes(m).decode("utf-8", "backslashreplace")
    print("%s\t%r" % (e.get("PRIORITY"), m))'
}

# journal_has IDENT MESSAGE: the journal holds MESSAGE from IDENT (for
# wait_until: journald reads a stream after its writer is gone).
journal_has() {
	journal_entries "$1" | cut -f2 | grep -qxF "'$2'"
}

# event_lines FILE NAME [STREAM]: the events of tail's JSON in FILE named
# Syslog:NAME (of stream STREAM only, if given), a line each as
# journal_entries prints them: severity, a tab, the message's repr.
event_lines() {
	python3 -c '
import json, sys
name, stream = "Syslog:" + sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["n"] == name and (stream is None or e.get("stream") == stream):
        print("%s\t%r" % (e["severity"], e["message"]))' "$@"
}

# service_entries TAG [stdout]: what journald makes of journal_service.py
# TAG, as journal_entries prints it, spelled out by its rules, not ours;
# stdout: of its standard output only.
service_entries() {
	printf '6\t%s\n' "'$1 buffered one'" "'$1 buffered two'" "'$1 unbuffered'"
	printf '3\t%s\n' "'$1 an error'"
	printf '7\t%s\n' "'$1 debug'"
	printf '6\t%s\n' "'$1 zero-padded info'" "'<9>$1 not a prefix'" \
		"'$1 started here, finished later'" "'$1 two lines'" "'$1 in one write'" \
		"'$1 cut at a NUL'" "'$1 after it'"
	python3 -c '
import sys
head = sys.argv[1] + " long "
print("6\t%r" % (head + "x" * (49152 - len(head))))' "$1"
	printf '6\t%s\n' "'$1 past LineMax'"
	[ "${2:-}" = stdout ] || printf '4\t%s\n' "'$1 on stderr'"
	printf '6\t%s\n' "'$1 end'"
}

# service_cgroup PATH: a cgroup for PATH (a unit's name, or a path of
# them), in $CGROUP_DIR, as systemd's /system.slice/PATH: cgroup v2 mounted in the test's mount
# namespace (under its /run), the test's own slice made in it and
# removed at exit; skips where cgroup v2 cannot be mounted or written.
service_cgroup() {
	if [ -z "${CGROUP_SLICE:-}" ]; then
		mkdir -p /run/ehs-cgroup
		mount -t cgroup2 none /run/ehs-cgroup 2>"$T/cgroup.err" ||
			skip "cgroup v2 cannot be mounted here: $(cat "$T/cgroup.err")"
		CGROUP_SLICE=$(mktemp -d /run/ehs-cgroup/ehs-test-XXXXXX.slice 2>"$T/cgroup.err") ||
			skip "no cgroup of the test's own here: $(cat "$T/cgroup.err")"
		trap 'remove_cgroups; remove_owned; rm -rf "$T" ${S:+"$S"}' EXIT
	fi
	CGROUP_DIR=$CGROUP_SLICE/$1
	mkdir -p "$CGROUP_DIR" || fail "cannot make the cgroup $CGROUP_DIR"
}

# At exit: the test's cgroups, their processes gone (the test's PID
# namespace ends them).
remove_cgroups() {
	[ -n "${CGROUP_SLICE:-}" ] || return 0
	find "$CGROUP_SLICE" -depth -type d -exec rmdir {} + 2>/dev/null
	return 0
}
