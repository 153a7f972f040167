#!/bin/sh
# ehsyslog decode of perf.data and trace.dat holding the library's
# uprobe events, recorded on this machine's kernel from python3 with the
# built library preloaded (a copy of its own, its events defined by
# register --uprobes): the same lines, text and JSON, as user_events
# events give, and what perf script shows of the fields.  An event whose
# base64 the kernel cut (fired through tests/cli/uprobe_tiny.c) is
# reported, not printed.
. "${top_srcdir:-.}/tests/cli/uprobe_lib.sh"
. "${top_srcdir:-.}/tests/lib/perf_path.sh"
in_namespace "$0" "$@"

own_library "$T/libehsyslog.so.0"
expect 0 "$EHSYSLOG" register --uprobes "$LIB"
cat >"$T/prog.py" <<'PY'
import syslog
syslog.openlog("demo", syslog.LOG_PID, syslog.LOG_DAEMON)
syslog.syslog(syslog.LOG_WARNING, "hi there")
syslog.syslog(syslog.LOG_LOCAL0 | syslog.LOG_ERR, "third")
syslog.syslog(syslog.LOG_DEBUG, "at L5")
PY
host=$(uname -n)
# run.sh: prog.py with the library preloaded, its pid in $T/prog.pid
# (the shell's, which exec makes python's).
cat >"$T/run.sh" <<S
#!/bin/sh
echo \$\$ >"$T/prog.pid"
LD_PRELOAD="$PRELOAD" exec python3 "$T/prog.py"
S
chmod +x "$T/run.sh"

# check_decoded FILE HOST [L5]: decode's text and JSON lines of FILE,
# recorded of one run of prog.py as $prog at levels 2 and 3 (and 5).
check_decoded() {
	expect 0 "$EHSYSLOG" decode "$1"
	sed 's/^[^ ]* //' "$T/out" >"$T/got"
	printf '%s\n' "$2 demo[$prog]: daemon.warning hi there" "$2 demo[$prog]: local0.err third" \
		${3:+"$2 demo[$prog]: daemon.debug at L5"} >"$T/want"
	checks=$((checks + 1))
	cmp -s "$T/want" "$T/got" || fail "decode $1 printed: $(cat "$T/out") $(cat "$T/err")"
	expect 0 "$EHSYSLOG" decode --json "$1"
	sed 's/"time":"[^"]*",//; s/"cpu":[0-9]*,//; s/"errno":"[A-Z0-9]*([0-9]*)"/"errno":E/' "$T/out" >"$T/got"
	cat >"$T/want" <<W
{"n":"Syslog:demo","message":"hi there","severity":4,"facility":3,"errno":E,"meta":{"pid":$prog,"tid":$prog,"level":3,"keyword":"0x8"}}
{"n":"Syslog:demo","message":"third","severity":3,"facility":16,"errno":E,"meta":{"pid":$prog,"tid":$prog,"level":2,"keyword":"0x10000"}}
W
	[ -z "${3:-}" ] ||
		echo '{"n":"Syslog:demo","message":"at L5","severity":7,"facility":3,"errno":E,"meta":{"pid":'"$prog"',"tid":'"$prog"',"level":5,"keyword":"0x8"}}' >>"$T/want"
	checks=$((checks + 1))
	cmp -s "$T/want" "$T/got" || fail "decode --json $1 printed: $(cat "$T/out") $(cat "$T/err")"
}

# perf record: its samples carry the records' raw data.
if PERF=$(perf_path); then
	"$PERF" record -q -e "$GROUP:*" -o "$T/perf.data" -- "$T/run.sh" >"$T/perf.out" 2>&1 ||
		fail "perf record failed: $(cat "$T/perf.out")"
	prog=$(cat "$T/prog.pid")
	check_decoded "$T/perf.data" "$host" L5
	"$PERF" script -i "$T/perf.data" >"$T/script" 2>&1
	expect_text script "$GROUP:warning: ("
	expect_text script 'message="hi there" name="Syslog:demo" severity=4 facility=3 errno='
	expect_text script 'message="third" name="Syslog:demo" severity=3 facility=16 errno='
	# A message split into parts (over 1536 bytes) is joined into one
	# line; the joined JSON line carries no part or parts.
	"$PERF" record -q -e "$GROUP:*" -o "$T/long.data" -- env LD_PRELOAD="$PRELOAD" python3 -c '
import syslog
syslog.openlog("demo", 0, syslog.LOG_DAEMON)
syslog.syslog(syslog.LOG_WARNING, "".join(chr(97 + i % 26) for i in range(5000)))' \
		>"$T/perf.out" 2>&1 || fail "perf record failed: $(cat "$T/perf.out")"
	expect 0 "$EHSYSLOG" decode --fields "$T/long.data"
	checks=$((checks + 1))
	[ "$(grep -c 'part=' "$T/out")" -ge 4 ] || fail "not recorded in parts: $(cut -c1-300 "$T/out")"
	expect 0 "$EHSYSLOG" decode --json "$T/long.data"
	checks=$((checks + 1))
	python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, "%d lines" % len(lines)
ev = json.loads(lines[0])
assert ev["message"] == "".join(chr(97 + i % 26) for i in range(5000)), "message of %d" % len(ev["message"])
assert "part" not in ev and "parts" not in ev, "part %s of %s" % (ev.get("part"), ev.get("parts"))
assert ev["severity"] == 4 and ev["facility"] == 3 and "meta" in ev, lines[0][-200:]' "$T/out" 2>"$T/py.err" ||
		fail "decode --json of a split message: $(tail -1 "$T/py.err")"
	expect 0 "$EHSYSLOG" decode "$T/long.data"
	checks=$((checks + 1))
	[ "$(wc -l <"$T/out")" = 1 ] || fail "decode of a split message: $(wc -l <"$T/out") lines"
else
	echo "SKIP (sub-check): no working perf: perf.data not checked"
fi

# trace-cmd record; where this kernel cannot take trace-cmd's
# ftrace_enabled (no function tracer), the same events read from the top
# instance by trace-cmd extract, but only while no event of anyone else's
# is enabled there: extract empties that buffer.  Both use the top
# instance, the kernel's, not the namespace's: under the lock of the host
# tests that use it (tests/lib/top_instance.sh).
exec 9>"$TOP_INSTANCE_LOCK"
flock 9
if ! command -v trace-cmd >/dev/null; then
	echo "SKIP (sub-check): no trace-cmd: trace.dat not checked"
elif trace-cmd record -q -e "$GROUP:error" -e "$GROUP:warning" -o "$T/trace.dat" -- "$T/run.sh" \
	>"$T/tc.out" 2>&1; then
	prog=$(cat "$T/prog.pid")
	check_decoded "$T/trace.dat" -
elif grep -qv '^#' "$TR/set_event"; then
	echo "SKIP (sub-check): trace-cmd record fails here ($(tr '\n' ' ' <"$T/tc.out")), and the top instance has events enabled: trace.dat not checked"
else
	echo 1 >"$TR/events/$GROUP/error/enable"
	echo 1 >"$TR/events/$GROUP/warning/enable"
	"$T/run.sh"
	echo 0 >"$TR/events/$GROUP/error/enable"
	echo 0 >"$TR/events/$GROUP/warning/enable"
	prog=$(cat "$T/prog.pid")
	trace-cmd extract -o "$T/trace.dat" >"$T/tc.out" 2>&1 || fail "trace-cmd extract: $(cat "$T/tc.out")"
	check_decoded "$T/trace.dat" -
fi
flock -u 9
expect 0 "$EHSYSLOG" register --uprobes --delete "$LIB"

# A cut event: the base64 ends inside a group.
tiny=$top_builddir/tests/cli/.libs/libuprobe_tiny.so
cp "$tiny" "$T/libtiny.so"
own_events "$T/libtiny.so"
expect 0 "$EHSYSLOG" register --uprobes --level 3 "$LIB"
if [ -n "${PERF:-}" ]; then
	"$PERF" record -q -e "$GROUP:warning" -o "$T/cut.data" -- python3 -c '
import ctypes, sys
f = ctypes.CDLL(sys.argv[1]).tiny_fire
f.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int,
              ctypes.c_int, ctypes.c_char_p]
f(3, b"cut", b"Syslog:demo", 4, 3, 0, b"BwAAAAAAAAMqAAEAZGVtbwBtZXNz")
f(3, b"cut", b"Syslog:demo", 4, 3, 0, b"BwAAAAAAAAMqAAEAZGVtbwBtZXN")' "$LIB" >"$T/perf.out" 2>&1 ||
		fail "perf record failed: $(cat "$T/perf.out")"
	expect 1 "$EHSYSLOG" decode "$T/cut.data"
	expect_empty out
	expect_line err "ehsyslog decode: Syslog_L3K8: event truncated"
fi
# Deleted here, where a failure shows, not only by the exit's cleanup.
expect 0 "$EHSYSLOG" register --uprobes --delete "$LIB"
checks=$((checks + 1))
[ -z "$(defined "$GROUP")" ] || fail "left defined: $(defined "$GROUP")"
finish
