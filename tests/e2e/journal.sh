#!/bin/sh
# libsystemd's journal calls under the preload, in the test guest: a
# program built against Debian's libsystemd (tests/e2e/journal.c) calls
# every sd_journal_* entry point, with and without sd-journal.h's
# location macros.  Its events are checked field by field, extras
# included, against what the program expected, as `ehsyslog tail --json`
# prints them, as `ehsyslog decode --json` reads them from trace-cmd's
# trace.dat, and as an independent decoder reads them from a tracefs
# instance's ring buffer (journal_check.py).  Pass-through: a listener
# bound on journald's socket, /run/systemd/journal/socket (no journald
# runs in the guest), receives byte for byte the same datagrams with and
# without the library.
set -u
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/e2e/lib.sh"
prog=$e2e/journal_calls
if [ "${E2E_INSIDE:-}" != y ] && [ ! -x "$prog" ]; then
	echo "SKIP: $prog not built: configure found no libsystemd (apt-get install libsystemd-dev)"
	exit 77
fi
e2e_boot journal.sh --guest-only
check="python3 $srcdir/tests/e2e/journal_check.py"

sock=/run/systemd/journal/socket
mkdir -p /run/systemd/journal || exit 99

# run TAG [VAR=VALUE]...: the program once, its datagrams to $work/TAG.dgrams.
run() {
	tag=$1
	shift
	python3 "$srcdir/tests/e2e/devlog.py" "$sock" "$work/$tag.dgrams" &
	listener=$!
	while [ ! -e "$work/$tag.dgrams.ready" ]; do sleep 0.1; done
	env "$@" "$prog"
	expect_eq "$tag: exit status" 0 $?
	kill -TERM "$listener"
	wait "$listener" || fail "$tag: the journal socket's listener failed"
}

run plain E2E_NONE=1

# Recorded by trace-cmd, read back by `ehsyslog decode --json`.
register_start
trace-cmd record -q -o "$work/trace.dat" -e user_events \
	env LD_PRELOAD="$lib" E2E_EXPECT="$work/recorded" "$prog" >"$work/record.out" 2>&1
status=$?
expect_eq "trace-cmd record: exit status" 0 $status
[ $status -eq 0 ] || sed 's/^/  | /' "$work/record.out"
register_stop
"$tool" decode --json "$work/trace.dat" >"$work/decoded" 2>"$work/decode.err"
expect_eq "decode: exit status" 0 $?
expect_eq "decode: stderr" "" "$(cat "$work/decode.err")"
if r=$($check tail "$work/recorded" "$work/decoded" 2>&1); then pass "decode --json: $r"; else
	fail "decode --json"
	printf '%s\n' "$r"
fi
# Text lines: the file, line and extra fields after the message (time,
# pid, source path and line masked: journal_check compares them exactly).
"$tool" decode "$work/trace.dat" 2>&1 |
	sed -E 's/^[^ ]+ /TIME /; s/\[[0-9]+\]:/[PID]:/; s/ line=[0-9]+ / line=N /; s/\[file="[^"]*journal\.c"/[file="journal.c"/' >"$work/decoded.txt"
cat >"$work/want.txt" <<'TEXT'
TIME - journal_calls[PID]: user.notice plain print 1 No such file or directory
TIME - journal_calls[PID]: user.warning located print [file="journal.c" line=N CODE_FUNC="main"]
TIME - journal_calls[PID]: user.debug plain printv 2
TIME - journal_calls[PID]: user.err located printv x [file="journal.c" line=N CODE_FUNC="printv_located"]
TIME - jident[PID]: local0.err plain send 7 [FOO="bar" NUMBERS="1099511627776 2.50"]
TIME - journal_calls[PID]: user.crit located send [file="journal.c" line=N CODE_FUNC="main" CUSTOM_KEY="x y"]
TIME - journal_calls[PID]: user.notice two\nlines [BLOB="a\nb\0c"]
TIME - journal_calls[PID]: user.notice two\nlines [file="journal.c" line=N BLOB="a\nb\0c" CODE_FUNC="main"]
TIME - journal_calls[PID]: user.err plain perror: Permission denied
TIME - journal_calls[PID]: user.err Permission denied [file="journal.c" line=N CODE_FUNC="main"]
TIME - journal_calls[PID]: local2.info after openlog
TEXT
if cmp -s "$work/want.txt" "$work/decoded.txt"; then pass "decode: text lines with the extra fields"; else
	fail "decode: text lines"
	diff "$work/want.txt" "$work/decoded.txt"
fi
tail_start "$work/events" 125 || exit 1
# The independent reader's own instance, every user_events tracepoint
# (tail registered ours) enabled.
raw=/sys/kernel/tracing/instances/e2e-journal-raw
mkdir "$raw" && echo 1 >"$raw/events/user_events/enable" || fail "no raw instance"
run preloaded LD_PRELOAD="$lib" E2E_EXPECT="$work/expected"
expect_eq "expected events" 11 "$(wc -l <"$work/expected")"
# Read while tail runs: the tracepoints it registered go with it, and
# with them the formats that name the raw events.
echo 0 >"$raw/events/user_events/enable"
if r=$($check raw "$work/expected" "$raw" 2>&1); then pass "$r"; else
	fail "independent decoder"
	printf '%s\n' "$r"
fi
rmdir "$raw"
tail_stop "$work/events" "$(wc -l <"$work/expected")"
if r=$($check tail "$work/expected" "$work/events" 2>&1); then pass "$r"; else
	fail "tail --json"
	printf '%s\n' "$r"
fi

expect_eq "datagrams received" 11 "$(wc -l <"$work/plain.dgrams")"
if cmp -s "$work/plain.dgrams" "$work/preloaded.dgrams"; then
	pass "journal datagrams identical with and without the library"
else
	fail "journal datagrams differ"
	diff "$work/plain.dgrams" "$work/preloaded.dgrams" | head -20
fi
# libsystemd loaded by dlopen after the library resolved the real
# functions: the plugin's call still reaches it.
python3 "$srcdir/tests/e2e/devlog.py" "$sock" "$work/dlopen.dgrams" &
listener=$!
while [ ! -e "$work/dlopen.dgrams.ready" ]; do sleep 0.1; done
LD_PRELOAD="$lib" "$e2e/journal_dlopen" "$e2e/.libs/libjournal_plugin.so"
expect_eq "dlopen: exit status" 0 $?
kill -TERM "$listener"
wait "$listener" || fail "dlopen: the journal socket's listener failed"
expect_eq "dlopen: datagrams" 1 "$(wc -l <"$work/dlopen.dgrams")"
grep -q "$(printf 'MESSAGE=from the plugin' | od -An -v -tx1 | tr -d ' \n')" "$work/dlopen.dgrams" ||
	fail "dlopen: the plugin's message did not reach the socket"

# The datagrams are libsystemd's: a binary field in its length form.
grep -q "$(printf 'BLOB\n\005\0\0\0\0\0\0\0a\nb' | od -An -v -tx1 | tr -d ' \n')" \
	"$work/plain.dgrams" || fail "no BLOB field in journald's binary form"

e2e_finish
