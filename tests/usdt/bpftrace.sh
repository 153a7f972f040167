#!/bin/sh
# The one-liner libehsyslog(7) gives for bpftrace, on the library's info
# probe, against preloaded python3: bpftrace must print the ident, the
# message, the severity and the facility of each traced call, and
# nothing of a level it does not trace.  Runs in a private mount
# namespace with a tracefs of its own (bpftrace detaches through it).
set -u
b=${top_builddir:-.}
lib=$b/.libs/libehsyslog.so
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: bpftrace needs root"; exit 77; }
command -v bpftrace >/dev/null || { echo "SKIP: no bpftrace (apt-get install bpftrace)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
if [ -z "${EHS_IN_NS:-}" ]; then
	"${top_srcdir:-.}/scripts/tracefs-ns" --check 2>/dev/null ||
		{ echo "SKIP: no private mount namespace: $("${top_srcdir:-.}/scripts/tracefs-ns" --check 2>&1)"; exit 77; }
	EHS_IN_NS=1 exec "${top_srcdir:-.}/scripts/tracefs-ns" fresh -- sh "$0"
fi
tmp=$(mktemp -d) || exit 99
trap 'kill "$bt" 2>/dev/null; rm -rf "$tmp"' EXIT
# A copy of its own: uprobes are per file, another test's on the built
# library would fire here too.
cp "$(readlink -f "$lib")" "$tmp/libehsyslog.so.0" || exit 99
lib=$tmp/libehsyslog.so.0
# In a sanitizer build, python3 gets the runtimes first (and keeps its
# own leaks to itself).
. "${top_srcdir:-.}/tests/lib/sanitizers.sh"
preload=$(sanitizer_runtimes "$lib")$lib
[ "${sanitizers:-no}" != yes ] || export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
bpftrace -e "usdt:$lib:ehsyslog:info { printf(\"%s sev=%d fac=%d: %s\n\", str(arg1), arg2, arg3, str(arg0)); }" \
	>"$tmp/out" 2>"$tmp/err" &
bt=$!
# catches SIGNAL PID: PID has a handler of its own for SIGNAL (its bit
# in /proc/PID/status's SigCgt).  bpftrace starts with SIGINT ignored
# (an asynchronous command of a shell without job control), and a
# SIGINT sent before it installs its handler is lost: it never exits.
catches() {
	cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$2/status" 2>/dev/null)
	[ -n "$cgt" ] && [ $((0x$cgt >> ($1 - 1) & 1)) = 1 ]
}
# bpftrace says when it attaches, and has its SIGINT handler once it
# runs; BPF may be refused here.
i=0
while ! grep -q '^Attaching' "$tmp/out" 2>/dev/null || ! catches 2 "$bt"; do
	if ! kill -0 "$bt" 2>/dev/null || [ $i -ge 300 ]; then
		if grep -q "Operation not permitted" "$tmp/err"; then
			echo "SKIP: bpftrace cannot load BPF here: $(head -n 3 "$tmp/err")"
			exit 77
		fi
		echo "FAIL: bpftrace did not attach: $(cat "$tmp/err")"
		exit 1
	fi
	sleep 0.1
	i=$((i + 1))
done
# The program logs once the probe is on in it: the library's semaphore
# (the gate, 0x7f at rest) has its top bit, which the kernel sets when a
# uprobe with it as reference counter is attached.
sem=$(readelf -n "$lib" | awk '/Provider: ehsyslog/ { on = 1 } on && /Semaphore:/ { print $6; exit }')
LD_PRELOAD=$preload python3 -c 'import ctypes, os, sys, syslog, time
lib, sem = sys.argv[1], int(sys.argv[2], 16)
base = next(int(f[0].split("-")[0], 16) for f in (l.split() for l in open("/proc/self/maps"))
            if len(f) >= 6 and os.path.realpath(f[5]) == lib and int(f[2], 16) == 0)
end = time.monotonic() + 30
while not ctypes.c_uint8.from_address(base + sem).value & 0x80:
    if time.monotonic() > end:
        sys.exit("the probe never came on")
    time.sleep(0.01)
syslog.openlog("btdemo", 0, syslog.LOG_DAEMON)
syslog.syslog(syslog.LOG_INFO, "via bpftrace")
syslog.syslog(syslog.LOG_ERR, "an error, not traced")
syslog.syslog(syslog.LOG_NOTICE | syslog.LOG_LOCAL3, "notice")' "$(readlink -f "$lib")" "$sem" ||
	{ echo "FAIL: python3 under the library failed (its stderr is above)"; exit 1; }
sleep 0.5
kill -INT "$bt"
# bpftrace ends on SIGINT; a bound all the same, never a hung test.
i=0
while kill -0 "$bt" 2>/dev/null && [ "$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$bt/status" 2>/dev/null)" != Z ]; do
	if [ $i -ge 200 ]; then
		kill -KILL "$bt"
		echo "FAIL: bpftrace still ran 20 s after SIGINT"
		exit 1
	fi
	sleep 0.1
	i=$((i + 1))
done
wait "$bt"
bt=
printf '%s\n' 'Syslog:btdemo sev=6 fac=3: via bpftrace' 'Syslog:btdemo sev=5 fac=19: notice' >"$tmp/want"
grep '^Syslog:' "$tmp/out" >"$tmp/got"
if ! cmp -s "$tmp/want" "$tmp/got"; then
	echo "FAIL: bpftrace printed:"
	cat "$tmp/out" "$tmp/err"
	echo "want:"
	cat "$tmp/want"
	exit 1
fi
echo "PASS: bpftrace's usdt probe printed both info calls' fields and nothing else"
