#!/bin/sh
# README.md's "Quick start", run as written in a kernel with user_events
# (one guest boot).  The commands are read from the README itself: the
# indented lines starting with "$ ", a command going on while its single
# quotes are open; the other indented lines after one are its output, and
# a block without a command is the JSON example.  They run in order, as
# root, with a "sudo" that only runs its arguments and "ehsyslog" and
# "perf" the built tool and the real perf: tail (and tail --json, named
# in the text after the demo) in the background, the demo, register in
# the background, perf record with the demo run meanwhile, decode; then
# the trace-cmd sentence the same way.  tail must print the README's two
# lines, tail --json and decode --json perf.data its JSON line, decode
# trace.dat the first line, all but the time, cpu, host and pid.
# ehsyslog export is not run: it needs a collector.
# On the host first, without booting: the commands are the ones this test
# knows how to run, and they agree with the demo (run with a stand-in
# for Python's syslog module) on the events' text and the tracepoint
# name; else the test fails here.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
. "${top_srcdir:-.}/tests/lib/readme_section.sh"

README=$top_srcdir/README.md
Q=$T/quickstart
mkdir "$Q" || exit 99
# The system's programs (python3), not a developer's.
SYSPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# The section, split (readme_section).
readme_section "$README" "Quick start" "$Q" || exit 99

cmd() { cat "$Q/cmd.$1" 2>/dev/null; }

# The demo under a stand-in syslog module: one line per message,
# "IDENT FACILITY SEVERITY MESSAGE" (numbers).
STANDIN='
import sys, types, syslog as real
fake = types.ModuleType("syslog")
for k in dir(real):
    if k.startswith("LOG_"):
        setattr(fake, k, getattr(real, k))
st = {"ident": None, "fac": real.LOG_USER}
def openlog(ident=None, logoption=0, facility=real.LOG_USER):
    st["ident"], st["fac"] = ident, facility
def syslog(*a):
    pri, msg = a if len(a) == 2 else (real.LOG_INFO, a[0])
    print(st["ident"], (pri & ~7 or st["fac"]) >> 3, pri & 7, msg)
fake.openlog, fake.syslog = openlog, syslog
sys.modules["syslog"] = fake
exec(sys.argv[1])
'
fac_name() {
	echo kern user mail daemon auth syslog lpr news uucp cron authpriv ftp \
		12 13 14 15 local0 local1 local2 local3 local4 local5 local6 local7 |
		cut -d' ' -f$(($1 + 1))
}
sev_name() { echo emerg alert crit err warning notice info debug | cut -d' ' -f$(($1 + 1)); }
level_of() { echo 1 1 1 2 3 4 4 5 | cut -d' ' -f$(($1 + 1)); }
# with_host_pid FILE HOST PID: FILE's text lines, the time masked
# (mask_text), the host and the pid replaced.
with_host_pid() {
	mask_text "$1" | sed -E "s/^TIME [^ ]+ ([^[]*)\\[[0-9]+\\]:/TIME $2 \\1[$3]:/"
}

# check_readme: the section holds what this test runs, consistent with
# the demo; sets code (the demo's Python), NAME (its first message's
# tracepoint), JSON_CMD and TRACE_CMD.
check_readme() {
	checks=$((checks + 1))
	[ "$(cat "$Q/count")" = 6 ] || fail "README quick start: $(cat "$Q/count") commands, expected 6 (tail, run, export, register, perf record, decode)"
	checks=$((checks + 1))
	[ "$(cmd 1)" = "sudo ehsyslog tail" ] || fail "README command 1: '$(cmd 1)', expected 'sudo ehsyslog tail'"
	c2=$(cmd 2)
	code=${c2#"sudo ehsyslog run -- python3 -c '"}
	code=${code%"'"}
	checks=$((checks + 1))
	case $code in
	"$c2" | *"'"*) fail "README command 2 is not sudo ehsyslog run -- python3 -c '...': $c2" ;;
	esac
	checks=$((checks + 1))
	case $(cmd 3) in
	"sudo ehsyslog export "*) ;;
	*) fail "README command 3 is not sudo ehsyslog export ...: $(cmd 3)" ;;
	esac
	checks=$((checks + 1))
	PATH=$SYSPATH python3 -c "$STANDIN" "$code" >"$Q/events" 2>"$T/err" ||
		fail "the README's demo under a stand-in syslog: $(cat "$T/err")"
	: >"$Q/want"
	while read -r ident fac sev msg; do
		echo "TIME HOST ${ident}[PID]: $(fac_name "$fac").$(sev_name "$sev") $msg" >>"$Q/want"
	done <"$Q/events"
	with_host_pid "$Q/out.1" HOST PID >"$Q/got"
	expect_same "README: tail's lines against the demo's messages" "$Q/want" "$Q/got"
	read -r ident fac sev msg <"$Q/events" || return 0
	NAME=Syslog_L$(level_of "$sev")K$(printf %x $((1 << fac)))
	printf '%s\n' \
		"sudo ehsyslog register --facility $(fac_name "$fac") --level $(sev_name "$sev") &   # so perf can name $NAME now" \
		"sudo perf record -e 'user_events:$NAME' -a -- sleep 10   # run the demo meanwhile" \
		"sudo ehsyslog decode --json perf.data   # perf wrote it readable by root only" >"$Q/want"
	cat "$Q/cmd.4" "$Q/cmd.5" "$Q/cmd.6" >"$Q/got" 2>/dev/null
	expect_same "README: register, perf record and decode for the demo's first message" "$Q/want" "$Q/got"
	checks=$((checks + 1))
	for n in 2 3 4 5 6; do
		[ ! -e "$Q/out.$n" ] || fail "README: command $n shows output this test does not check: $(cat "$Q/out.$n")"
	done
	checks=$((checks + 1))
	if [ ! -e "$Q/block.1" ] || [ -e "$Q/block.2" ] || [ "$(wc -l <"$Q/block.1")" != 1 ]; then
		fail "README: expected one block without a command, the one JSON line"
	fi
	checks=$((checks + 1))
	case $(cat "$Q/block.1" 2>/dev/null) in
	"{\"n\":\"Syslog:$ident\",\"message\":\"$msg\",\"severity\":$sev,\"facility\":$fac,"*"\"level\":$(level_of "$sev"),\"keyword\":\"0x${NAME#*K}\"}}") ;;
	*) fail "README: the JSON line is not the demo's first message on $NAME: $(cat "$Q/block.1" 2>/dev/null)" ;;
	esac
	JSON_CMD="sudo ehsyslog tail --json"
	TRACE_CMD="trace-cmd record -e user_events:$NAME"
	for s in "\`${JSON_CMD#sudo }\`" "\`$TRACE_CMD\`," "\`ehsyslog decode trace.dat\`"; do
		checks=$((checks + 1))
		grep -qF -- "$s" "$Q/prose" || fail "README quick start's text lacks $s"
	done
}
check_readme
if [ "${1:-}" != --inside ]; then
	echo "README quick start: 6 commands, 5 run in the guest (not export: it needs a collector)"
	[ "$failures" = 0 ] || finish
fi
in_kernel "$0" "$@"

find_perf
host=$(uname -n)
# sudo runs its arguments (we are root); ehsyslog and perf are the built
# tool and the real perf.
mkdir "$T/bin" || exit 99
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
chmod +x "$T/bin/sudo"
ln -s "$EHSYSLOG" "$T/bin/ehsyslog"
ln -s "$PERF" "$T/bin/perf"
PATH=$T/bin:$SYSPATH
cd "$T" || exit 99

# bg FILE TEXT: TEXT, without its comment and "&", in the background,
# stdout and stderr in $T/FILE.out and .err.
bg() {
	c=$(printf '%s\n' "$2" | sed -E '$s/[[:space:]]+#[^'\'']*$//; $s/[[:space:]]*&$//')
	eval "$c"' >"$T/$1.out" 2>"$T/$1.err" &'
}
# demo FILE: the README's demo; its pid (run execs it) in $dpid.
demo() {
	bg "$1" "$(cmd 2)"
	dpid=$!
	drc=0
	wait $dpid || drc=$?
	checks=$((checks + 1))
	if [ "$drc" != 0 ] || [ -s "$T/$1.err" ] || [ -s "$T/$1.out" ]; then
		fail "the demo exited $drc: $(cat "$T/$1.out" "$T/$1.err")"
	fi
}
# readme_json PID: the README's JSON line, its time and cpu masked, pid PID.
readme_json() {
	mask_json "$Q/block.1" | sed -E "s/\"pid\":[0-9]+,\"tid\":[0-9]+/\"pid\":$1,\"tid\":$1/"
}
# readme_line N HOST PID: the README's line N of tail (with_host_pid).
readme_line() {
	with_host_pid "$Q/out.1" "$2" "$3" | sed -n "$1p"
}

# In one terminal tail (and tail --json), in another the demo.
bg tail "$(cmd 1)"
pid_tail=$!
bg json "$JSON_CMD"
pid_json=$!
for p in $pid_tail $pid_json; do
	wait_until 60 enabled_in "$p" Syslog_L5K800000 || fail "tail $p did not start: $(cat "$T/tail.err" "$T/json.err")"
done
demo demo1
stop_tail tail
stop_tail json
{
	readme_line 1 "$host" $dpid
	readme_line 2 "$host" $dpid
} >"$T/want"
mask_text "$T/tail.out" >"$T/got"
expect_same "$(cmd 1)" "$T/want" "$T/got"
readme_json $dpid >"$T/want"
mask_json "$T/json.out" | head -n 1 >"$T/got"
expect_same "$JSON_CMD, its first line" "$T/want" "$T/got"
checks=$((checks + 1))
[ ! -s "$T/tail.err" ] || fail "tail wrote on stderr: $(cat "$T/tail.err")"
checks=$((checks + 1))
[ ! -s "$T/json.err" ] || fail "tail --json wrote on stderr: $(cat "$T/json.err")"

echo "not run: $(cmd 3) (needs a collector)"

# register in the background; perf record, the demo meanwhile; decode.
bg register "$(cmd 4)"
reg=$!
wait_until 60 grep -qx "$NAME" "$TR/user_events_status" ||
	fail "register did not register $NAME: $(cat "$T/register.err")"
bg perf "$(cmd 5)"
perf=$!
wait_until 60 grep -qx "$NAME # Used by perf" "$TR/user_events_status" ||
	fail "perf did not enable $NAME: $(cat "$T/perf.err")"
demo demo2
prc=0
wait $perf || prc=$?
checks=$((checks + 1))
[ "$prc" = 0 ] || fail "$(cmd 5) exited $prc: $(cat "$T/perf.err")"
bg decode "$(cmd 6)"
wait $! || fail "$(cmd 6) exited $?: $(cat "$T/decode.err")"
readme_json $dpid >"$T/want"
mask_json "$T/decode.out" >"$T/got"
expect_same "$(cmd 6)" "$T/want" "$T/got"

# trace-cmd the same way, stopped by SIGINT.
if command -v trace-cmd >/dev/null; then
	bg trace "$TRACE_CMD"
	trc=$!
	wait_until 60 grep -q "^$NAME # Used by" "$TR/user_events_status" ||
		fail "trace-cmd did not enable $NAME: $(cat "$T/trace.err")"
	demo demo3
	kill -INT $trc
	wait $trc || fail "$TRACE_CMD exited $? after SIGINT: $(cat "$T/trace.err")"
	expect 0 ehsyslog decode trace.dat
	# (libtracecmd gives neither the file's host name, "-", nor the
	# clock's date: the time is in seconds.)
	readme_line 1 - $dpid >"$T/want"
	sed -E 's/^[^ ]+ /TIME /' "$T/out" >"$T/got"
	expect_same "ehsyslog decode trace.dat" "$T/want" "$T/got"
else
	echo "SKIP (sub-check): no trace-cmd here: the README's trace-cmd sentence"
fi

kill -INT $reg
rrc=0
wait $reg || rrc=$?
checks=$((checks + 1))
[ "$rrc" = 0 ] || fail "register exited $rrc after SIGINT: $(cat "$T/register.err")"
finish
