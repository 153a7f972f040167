#!/bin/sh
# ehsyslog register, status, decode and preload against a kernel with
# user_events (one guest boot): perf and trace-cmd can name a registered
# tracepoint before any program logged and decode prints what they
# recorded; --persist outlives the command and --delete removes it;
# every error path gives its message and exit code (a user who may not
# write user_events_data: 4; bad arguments and providers: 2); preload
# enable really loads the library into a child before listing it.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"

# Libraries for preload enable to refuse, built here (the guest's cc is slow).
libs=$top_builddir/tests/cli/kernel_register.libs
if [ "${1:-}" != --inside ]; then
	rm -rf "$libs" && mkdir -p "$libs" || exit 99
	KERNEL_SCRATCH=$libs
	printf '#include <unistd.h>\n__attribute__((constructor)) static void f(void) { write(2, "noise at start-up\\n", 18); }\n' >"$libs/noisy.c"
	printf '#include <unistd.h>\n__attribute__((constructor)) static void f(void) { _exit(3); }\n' >"$libs/exits.c"
	for l in noisy exits; do
		${CC:-cc} -shared -fPIC -o "$libs/$l.so" "$libs/$l.c" || skip "cannot build $libs/$l.so"
	done
fi
in_kernel "$0" "$@"

host=$(uname -n)
find_perf

# No permission: exit 4, the file and the permission named.
noperm="cannot open $TR/user_events_data for writing: Permission denied (needs root or write permission on it, plus search permission on $TR)"
for c in register tail status "register --delete"; do
	# shellcheck disable=SC2086 # c is words
	expect 4 as_nobody "$EHSYSLOG" $c
	expect_line err "ehsyslog ${c%% *}: $noperm"
done

# Bad arguments and providers: 2, before anything is registered.
expect 2 "$EHSYSLOG" register --level 9
expect_line err "ehsyslog register: invalid level '9' (1..5 or a severity name)"
expect 2 "$EHSYSLOG" register --provider 'a:b'
expect_text err "ehsyslog register: invalid provider name 'a:b': "
long=$(printf 'x%.0s' $(seq 250))
expect 2 "$EHSYSLOG" register --provider "$long"
expect_line err "ehsyslog register: invalid provider name '$long': must be 1-200 characters of A-Z a-z 0-9 _"
expect 2 "$EHSYSLOG" register --persist --delete
expect_line err "ehsyslog register: --persist and --delete exclude each other"
expect 2 "$EHSYSLOG" tail --provider 'a b'
expect_line err "ehsyslog tail: invalid provider name 'a b': must be 1-200 characters of A-Z a-z 0-9 _"
expect 2 "$EHSYSLOG" tail --provider "$long"
expect_line err "ehsyslog tail: invalid provider name '$long': must be 1-200 characters of A-Z a-z 0-9 _"
expect 2 "$EHSYSLOG" tail --count x
expect_line err "ehsyslog tail: bad count 'x'"
expect 2 "$EHSYSLOG" status extra
expect_line err "ehsyslog status: unexpected argument 'extra'"
expect 2 "$EHSYSLOG" decode
checks=$((checks + 1))
[ "$(grep -cv '^Active\|^Busy\|^$' "$TR/user_events_status")" = 0 ] || fail "tracepoints after the errors: $(cat "$TR/user_events_status")"

# perf cannot name a tracepoint nobody registered ...
expect 129 "$PERF" record -q -e user_events:Syslog_L4K2 -o "$T/none.data" -- true
expect_text err "unknown tracepoint"
# ... until register holds it.
"$EHSYSLOG" register --facility user --level info >"$T/reg.out" 2>"$T/reg.err" &
reg=$!
wait_until 60 grep -qx Syslog_L4K2 "$TR/user_events_status" || fail "register did not register Syslog_L4K2: $(cat "$T/reg.err")"
expect 0 "$EHSYSLOG" status
expect_line out "$(printf '  %-24s %s' Syslog_L4K2 'level 4, keyword 0x2 (facility user)  not enabled')"

# A system-wide perf shows in status as the tracepoint's user.
"$PERF" record -q -a -e user_events:Syslog_L4K2 -o "$T/all.data" >"$T/perf.out" 2>&1 &
perf=$!
wait_until 60 grep -qx 'Syslog_L4K2 # Used by perf' "$TR/user_events_status" || fail "perf -a did not enable Syslog_L4K2: $(cat "$T/perf.out")"
expect 0 "$EHSYSLOG" status
expect_line out "$(printf '  %-24s %s' Syslog_L4K2 'level 4, keyword 0x2 (facility user)  enabled by perf')"
kill -INT $perf
wait $perf

# perf record and trace-cmd record, then decode, text and JSON.
# run_logged TOOL...: TOOL... sh -c 'kernel_logger ...', the logger's pid in $T/pid.
run_logged() {
	# shellcheck disable=SC2016 # the inner shell expands them
	expect 0 "$@" sh -c 'echo $$ >"$1"; exec env LD_PRELOAD="$2" "$3" recorded 1 6 3 "via tracer"' sh "$T/pid" "$BUILT_LIBRARY" "$LOGGER"
	lp=$(cat "$T/pid")
}
# check_decoded FILE HOST
check_decoded() {
	expect 0 "$EHSYSLOG" decode "$1"
	expect_empty err
	seq 1 3 | sed "s/^/TIME $2 recorded[$lp]: user.info via tracer /" >"$T/want"
	sed -E 's/^[^ ]+ /TIME /' "$T/out" >"$T/got"
	expect_same "decode $1" "$T/want" "$T/got"
	expect 0 "$EHSYSLOG" decode --json "$1"
	seq 1 3 | sed "s/.*/{\"n\":\"Syslog:recorded\",\"message\":\"via tracer &\",\"severity\":6,\"facility\":1,\"errno\":\"ENOENT(2)\",\"meta\":{\"time\":\"TIME\",\"cpu\":N,\"pid\":$lp,\"tid\":$lp,\"level\":4,\"keyword\":\"0x2\"}}/" >"$T/want"
	sed -E 's/"time":"[^"]*"/"time":"TIME"/; s/"cpu":[0-9]+/"cpu":N/' "$T/out" >"$T/got"
	expect_same "decode --json $1" "$T/want" "$T/got"
}
run_logged "$PERF" record -q -e user_events:Syslog_L4K2 -o "$T/perf.data" --
check_decoded "$T/perf.data" "$host"
run_logged trace-cmd record -q -o "$T/trace.dat" -e user_events:Syslog_L4K2
# (libtracecmd does not give the file's host name: "-")
check_decoded "$T/trace.dat" -
# decode - takes it through a pipe (libtracecmd reads a copy by name).
cp "$T/out" "$T/file.json"
# shellcheck disable=SC2016 # the inner shell expands them
expect 0 sh -c 'cat "$1" | "$2" decode --json -' sh "$T/trace.dat" "$EHSYSLOG"
expect_empty err
expect_same "decode --json - < trace.dat" "$T/file.json" "$T/out"
# TMPDIR on a file system without O_TMPFILE (the guest's 9p share of
# $libs): the copy is named while libtracecmd opens it, then removed.
expect 0 env TMPDIR="$libs" sh -c 'cat "$1" | "$2" decode --json -' sh "$T/trace.dat" "$EHSYSLOG"
expect_empty err
expect_same "decode --json - < trace.dat, TMPDIR=$libs" "$T/file.json" "$T/out"
checks=$((checks + 1))
left=$(find "$libs" -name 'ehsyslog-decode.*')
[ -z "$left" ] || fail "decode - left its copy behind: $left"

# Still held: --delete refuses it; SIGINT ends register, which unregisters.
expect 1 "$EHSYSLOG" register --delete --facility user --level info
expect_empty out
expect_line err "ehsyslog register: cannot delete Syslog_L4K2: in use (registered by a running program or enabled by a tracer)"
kill -INT $reg
rrc=0
wait $reg || rrc=$?
checks=$((checks + 1))
[ "$rrc" = 0 ] || fail "register exited $rrc after SIGINT"
printf 'Syslog_L4K2\n' >"$T/want"
expect_same "register's names" "$T/want" "$T/reg.out"
checks=$((checks + 1))
[ ! -s "$T/reg.err" ] || fail "register wrote on stderr: $(cat "$T/reg.err")"
# shellcheck disable=SC2016
wait_until 60 sh -c '! grep -q "^Syslog_" "$1"' sh "$TR/user_events_status" || fail "Syslog_L4K2 left after register ended"

# --persist: the tracepoints outlive the command; --delete removes them.
expect 0 "$EHSYSLOG" register --persist --facility user,daemon --level err
printf 'Syslog_L2K2\nSyslog_L2K8\n' >"$T/want"
expect_same "register --persist" "$T/want" "$T/out"
grep '^Syslog_' "$TR/user_events_status" | sort >"$T/got"
expect_same "persistent tracepoints" "$T/want" "$T/got"
expect 0 "$PERF" record -q -e user_events:Syslog_L2K8 -o "$T/p.data" -- true
# A user who may write user_events_data but lacks CAP_PERFMON.
if ! chmod o+x "$TR" || ! chmod o+w "$TR/user_events_data"; then
	fail "cannot open user_events_data to others"
fi
expect 4 as_nobody "$EHSYSLOG" register --persist --facility user --level err
expect_line err "ehsyslog register: cannot register persistent tracepoints: Operation not permitted (needs CAP_PERFMON)"
expect 4 as_nobody "$EHSYSLOG" register --delete --facility user --level err
expect_line err "ehsyslog register: cannot delete Syslog_L2K2: Operation not permitted (a persistent tracepoint: needs CAP_PERFMON)"
chmod o-x "$TR" && chmod o-w "$TR/user_events_data"
expect 0 "$EHSYSLOG" register --delete
expect_same "register --delete" "$T/want" "$T/out"
expect_empty err
no_leftovers "after --delete"
expect 0 "$EHSYSLOG" register --delete
expect_empty out

# preload enable loads the library into /bin/true in a child, for real
# (the libraries in root_dir's $S: $T is below the sticky /tmp).
root_dir
mkdir "$S/etc"
for l in libehsyslog noisy exits; do
	if [ $l = libehsyslog ]; then cp "$BUILT_LIBRARY" "$S/$l.so"; else cp "$libs/$l.so" "$S/$l.so"; fi
	chmod 644 "$S/$l.so"
done
export EHSYSLOG_LD_SO_PRELOAD="$S/etc/ld.so.preload"
expect 1 "$EHSYSLOG" preload enable --library "$S/noisy.so"
expect_line err "ehsyslog preload: refusing $S/noisy.so: ld.so cannot preload it into /bin/true: noise at start-up"
expect 1 "$EHSYSLOG" preload enable --library "$S/exits.so"
expect_line err "ehsyslog preload: refusing $S/exits.so: /bin/true failed with it preloaded (exit status 3)"
checks=$((checks + 1))
[ ! -e "$EHSYSLOG_LD_SO_PRELOAD" ] || fail "a refused library was listed: $(cat "$EHSYSLOG_LD_SO_PRELOAD")"
expect 0 "$EHSYSLOG" preload enable --library "$S/libehsyslog.so"
expect_line out "added $S/libehsyslog.so to $S/etc/ld.so.preload"
printf '%s\n' "$S/libehsyslog.so" >"$T/want"
expect_same "ld.so.preload" "$T/want" "$EHSYSLOG_LD_SO_PRELOAD"
no_leftovers "at the end"

finish
