#!/bin/sh
# Who writes events on the uprobe transport: any process that runs the
# library's code, whatever its user, since a uprobe needs no permission
# of the process it fires in (with user_events a process must open
# user_events_data).  Here user nobody's python3, preloaded with a copy
# of the library, logs as "sshd" at auth.err, and root's tail prints the
# event with that name: what a reader can trust is the pid the kernel
# recorded, nobody's process's, not the name (docs/security.md).
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
in_namespace "$0" "$@"

# A directory nobody can read, with the copy the uprobes are defined on.
W=$(mktemp -d /tmp/ehsyslog-anyone.XXXXXX) || exit 99
chmod 755 "$W"
# Removed at exit with $T, by uprobe_lib.sh's trap (which also removes
# the test's uprobe events): S is the directory it removes besides.
S=$W
own_library "$W/libehsyslog.so.0"
chmod 644 "$LIB"
mkdir -m 777 "$W/out"

"$EHSYSLOG" tail --uprobes="$LIB" --json --count 1 --timeout 60 >"$T/tail.out" 2>"$T/tail.err" &
tail_pid=$!
wait_until 60 enabled_in_tail $tail_pid "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/tail.err")"
# shellcheck disable=SC2016 # nobody's shell expands these
setpriv --reuid=nobody --regid=nogroup --clear-groups env LD_PRELOAD="$PRELOAD" sh -c '
	echo $$ >"$1/pid"
	id -u >"$1/uid"
	exec python3 -c "import syslog
syslog.openlog(\"sshd\", 0, syslog.LOG_AUTH)
syslog.syslog(syslog.LOG_ERR, \"Accepted password for root\")"' sh "$W/out" 2>"$T/prog.err" ||
	fail "nobody's python3 exited $?: $(cat "$T/prog.err")"
wait $tail_pid || fail "tail exited $?: $(cat "$T/tail.err")"
pid=$(cat "$W/out/pid")
checks=$((checks + 1))
[ "$(cat "$W/out/uid")" = "$(id -u nobody)" ] || fail "the program ran as uid $(cat "$W/out/uid")"
checks=$((checks + 1))
sed -E 's/"time":"[^"]*"/"time":"TIME"/; s/"cpu":[0-9]+/"cpu":N/' "$T/tail.out" >"$T/got"
echo "{\"n\":\"Syslog:sshd\",\"message\":\"Accepted password for root\",\"severity\":3,\"facility\":4,\"errno\":\"ERRNO(0)\",\"meta\":{\"time\":\"TIME\",\"cpu\":N,\"pid\":$pid,\"tid\":$pid,\"level\":2,\"keyword\":\"0x10\"}}" >"$T/want"
expect_same "root's tail of nobody's event" "$T/want" "$T/got"
expect_empty tail.err
finish
