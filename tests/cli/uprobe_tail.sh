#!/bin/sh
# ehsyslog tail through the uprobe transport on this machine's kernel,
# with the built library preloaded into python3 (a copy of its own):
# three tails at once (the first defines the events, the others use
# them), exact text and JSON lines and a filtered tail, the library's
# semaphore (the gate, 0x7f at rest) raised by one for each site traced
# in a process that mapped it before the events existed, and back at rest
# after the tails; nothing left defined once they and
# cleanup are done; and a tail killed by SIGKILL, whose instance and
# events status reports and cleanup removes.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
in_namespace "$0" "$@"

own_library "$T/libehsyslog.so.0"
host=$(uname -n)
# The gate's address: the semaphore every note names.
sem=$(readelf -n "$LIB" | awk '/Provider: ehsyslog/ { on = 1 } on && /Semaphore:/ { print $6; exit }')

# A program that maps the library now, before any event exists: it
# prints the gate byte, then at each file the test creates logs or
# prints it again.
cat >"$T/prog.py" <<'PY'
import ctypes, os, sys, syslog, time
lib, sem, d = sys.argv[1], int(sys.argv[2], 16), sys.argv[3]
base = None
for line in open("/proc/self/maps"):
    f = line.split()
    if len(f) >= 6 and os.path.realpath(f[5]) == lib and int(f[2], 16) == 0:
        base = int(f[0].split("-")[0], 16)
        break
def gate():
    print("0x%02x" % ctypes.c_uint8.from_address(base + sem).value, flush=True)
def wait(name):
    while not os.path.exists(os.path.join(d, name)):
        time.sleep(0.05)
gate()
wait("go")
syslog.openlog("demo", syslog.LOG_PID, syslog.LOG_DAEMON)
syslog.syslog(syslog.LOG_WARNING, "hi there")
syslog.syslog(syslog.LOG_INFO, "second")
syslog.syslog(syslog.LOG_LOCAL0 | syslog.LOG_ERR, "third")
gate()
wait("done")
gate()
PY
LD_PRELOAD=$PRELOAD python3 "$T/prog.py" "$LIB" "$sem" "$T" >"$T/prog.out" 2>"$T/prog.err" &
prog=$!
wait_until 60 test -s "$T/prog.out" || fail "the program did not start: $(cat "$T/prog.err")"

# start_tail NAME LAST OPTION...: a tail into $T/NAME.out, its pid in
# $tail_pid, once its instance has the events enabled, LAST the least
# severe level it follows (enabled_in_tail).
start_tail() {
	name=$1
	last=$2
	shift 2
	"$EHSYSLOG" tail --uprobes="$LIB" --timeout 60 "$@" >"$T/$name.out" 2>"$T/$name.err" &
	tail_pid=$!
	wait_until 60 enabled_in_tail $tail_pid "$GROUP" "$last" ||
		fail "tail $name did not enable $GROUP: $(cat "$T/$name.err")"
}
start_tail text verbose --count 3
pid_text=$tail_pid
start_tail json verbose --count 3 --json
pid_json=$tail_pid
start_tail filtered warning --count 1 --min-severity warning --facility daemon
pid_filtered=$tail_pid
checks=$((checks + 1))
[ "$(defined "$GROUP" | wc -l)" = 5 ] || fail "defined: $(defined "$GROUP")"
checks=$((checks + 1))
[ "$(ls "$T/run")" = "uprobes-$pid_text-$(cut -d' ' -f22 "/proc/$pid_text/stat")-$(stat -L -c %i "/proc/$pid_text/ns/pid")" ] ||
	fail "the first tail's note of its events: $(ls "$T/run")"
checks=$((checks + 1))
[ "$(cat "$T/run/uprobes-$pid_text-"*)" = "$GROUP 3e" ] || fail "it says: $(cat "$T/run/"*)"
# register while a tail owns the events: named, with a note of whose.
expect 0 "$EHSYSLOG" register --uprobes --level 4 "$LIB"
expect_line out "$GROUP:info"
expect_line err "ehsyslog register: note: a running tail or export (pid $pid_text) defined some of these and removes them when it exits; run this again after it to keep them"

touch "$T/go"
wait $pid_text || fail "tail text exited $?"
wait $pid_json || fail "tail json exited $?"
wait $pid_filtered || fail "tail filtered exited $?"
for t in text json filtered; do
	checks=$((checks + 1))
	[ ! -s "$T/$t.err" ] || fail "tail $t said: $(cat "$T/$t.err")"
done
pid=$(grep -o 'demo\[[0-9]*\]' "$T/text.out" | head -1 | tr -dc 0-9)
checks=$((checks + 1))
[ "$pid" = "$prog" ] || fail "tail names pid '$pid', the program is $prog"
sed 's/^[^ ]* //' "$T/text.out" >"$T/got"
cat >"$T/want" <<W
$host demo[$prog]: daemon.warning hi there
$host demo[$prog]: daemon.info second
$host demo[$prog]: local0.err third
W
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "text tail printed: $(cat "$T/text.out")"
checks=$((checks + 1))
grep -qx '[0-9-]*T[0-9:.]*[+-][0-9:]* .*' "$T/text.out" || fail "text lines start with no RFC 3339 time: $(cat "$T/text.out")"
# errno is python's at the call, whatever it was.
sed 's/"time":"[^"]*",//; s/"cpu":[0-9]*,//; s/"errno":"[A-Z0-9]*([0-9]*)"/"errno":E/' "$T/json.out" >"$T/got"
cat >"$T/want" <<W
{"n":"Syslog:demo","message":"hi there","severity":4,"facility":3,"errno":E,"meta":{"pid":$prog,"tid":$prog,"level":3,"keyword":"0x8"}}
{"n":"Syslog:demo","message":"second","severity":6,"facility":3,"errno":E,"meta":{"pid":$prog,"tid":$prog,"level":4,"keyword":"0x8"}}
{"n":"Syslog:demo","message":"third","severity":3,"facility":16,"errno":E,"meta":{"pid":$prog,"tid":$prog,"level":2,"keyword":"0x10000"}}
W
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "JSON tail printed: $(cat "$T/json.out")"
checks=$((checks + 1))
[ "$(sed 's/^[^ ]* //' "$T/filtered.out")" = "$host demo[$prog]: daemon.warning hi there" ] ||
	fail "filtered tail printed: $(cat "$T/filtered.out")"

# The tails are gone: what one of them could not remove (another had it
# enabled then) goes with cleanup; the events register did not define
# are none here, so nothing is left.  (Its status is not checked: it also
# removes other tests' stale instances, which their own tails may be
# removing at the same time.)
run_cmd "$EHSYSLOG" cleanup
checks=$((checks + 1))
[ -z "$(defined "$GROUP")" ] || fail "left defined: $(defined "$GROUP")"
checks=$((checks + 1))
[ -z "$(ls "$T/run")" ] || fail "left in the runtime directory: $(ls "$T/run")"
touch "$T/done"
wait $prog || fail "the program exited $?: $(cat "$T/prog.err")"
checks=$((checks + 1))
[ "$(tr '\n' ' ' <"$T/prog.out")" = "0x7f 0x84 0x7f " ] ||
	fail "the gate was $(tr '\n' ' ' <"$T/prog.out"), expected 0x7f at rest, 0x84 with the five sites traced, then 0x7f"

# SIGKILL: the instance and the events stay; status names them, cleanup
# removes them.  Instances are kernel-wide: another test's tail or
# cleanup, at the same time, may remove this one first (its events are
# only this test's to remove: their note is in this test's $T/run).
"$EHSYSLOG" tail --uprobes="$LIB" >/dev/null 2>"$T/killed.err" &
killed=$!
wait_until 60 enabled_in_tail $killed "$GROUP" || fail "tail did not enable $GROUP: $(cat "$T/killed.err")"
inst=$(basename "$TR/instances/ehsyslog-tail-$killed-"*)
kill -KILL $killed
wait $killed 2>/dev/null
expect 0 "$EHSYSLOG" status
expect_line out "stale:         1 reader that is gone defined uprobe events ($T/run/uprobes-*): 'ehsyslog cleanup' removes those not enabled"
expect_text out "  $GROUP:critical  on $(grep "^p:$GROUP/critical " "$TR/uprobe_events" | cut -d' ' -f2)  "
# Another test's tail removing it at this very moment makes this
# cleanup's removal fail (busy), and the events still enabled in it
# stay: then cleanup again, once the instance is gone.
run_cmd "$EHSYSLOG" cleanup
mv "$T/out" "$T/cleanup.out"
wait_until 60 test ! -e "$TR/instances/$inst" || fail "cleanup left $inst: $(cat "$T/err")"
run_cmd "$EHSYSLOG" cleanup
cat "$T/out" >>"$T/cleanup.out"
mv "$T/cleanup.out" "$T/out"
expect_all_removed
finish
