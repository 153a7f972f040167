#!/bin/sh
# Proves the place scripts/kernel-test runs tests in: user_events files and
# tracefs are there, output, exit status, environment and working directory
# come back exactly, a non-root user can be switched to, --outdir is
# writable, --ld-so-preload really preloads, and --timeout stops a hung
# command with 124.  Each kernel-test call may boot the guest (seconds).
set -u

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-.}
kt=$srcdir/scripts/kernel-test

mode=$("$kt" --mode) || exit 99
case $mode in
skip:*)
	echo "SKIP: ${mode#skip: }"
	exit 77
	;;
esac
echo "mode: $mode"
# The checks compare everything the guest prints: a first kernel build
# (on a new machine) must not print into them.
if [ "$mode" = guest ] && [ -z "${EHSYSLOG_GUEST_KERNEL:-}" ]; then
	"$srcdir/scripts/guest-kernel" >/dev/null || exit 99
fi

failures=0
# expect NAME STATUS EXPECTED-OUTPUT ACTUAL-STATUS ACTUAL-OUTPUT
expect() {
	if [ "$4" = "$2" ] && [ "$5" = "$3" ]; then
		echo "PASS: $1"
	else
		failures=$((failures + 1))
		echo "FAIL: $1: exit status $4 (expected $2)"
		echo "--- expected output"
		printf '%s\n' "$3"
		echo "--- actual output"
		printf '%s\n' "$5"
	fi
}

# shellcheck disable=SC2016 # the guest expands these
# 1. The kernel interface, a failing status, stderr, env, cwd, setpriv.
out=$("$kt" --env 'SMOKE=a b'"'"'c' sh -c '
	for f in user_events_data user_events_status; do
		[ -e /sys/kernel/tracing/$f ] && echo "$f: present"
	done
	while read -r dev dir type rest; do
		[ "$dir" = /sys/kernel/tracing ] && echo "tracefs: $type"
	done </proc/mounts
	echo "env: $SMOKE"
	echo "cwd: $(pwd)"
	echo "to stderr" >&2
	echo "nobody: $(setpriv --reuid=nobody --regid=nogroup --clear-groups id -un):$(setpriv --reuid=nobody --regid=nogroup --clear-groups id -u)"
	exit 42' 2>&1)
rc=$?
expect "kernel interface, status 42, environment, user switch" 42 "user_events_data: present
user_events_status: present
tracefs: tracefs
env: a b'c
cwd: $(pwd)
to stderr
nobody: nobody:$(id -u nobody)" "$rc" "$out"

# 2. --outdir and --ld-so-preload, status 0.  The preloaded library must
# be one no command below links: libbsd (a build dependency of the tests).
lib=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libbsd\.so\.0 (.*x86-64.*) => //p' | head -n 1)
[ -z "$lib" ] && [ -x /sbin/ldconfig ] &&
	lib=$(/sbin/ldconfig -p | sed -n 's/^[[:space:]]*libbsd\.so\.0 (.*x86-64.*) => //p' | head -n 1)
[ -n "$lib" ] || {
	echo "ERROR: libbsd.so.0 not found with ldconfig -p"
	exit 99
}
lib=$(readlink -f "$lib")
outdir=$builddir/tests/kernel/guest_smoke.outdir
rm -rf "$outdir" && mkdir -p "$outdir" || exit 99
outdir=$(cd "$outdir" && pwd -P)
# shellcheck disable=SC2016
out=$("$kt" --outdir "$outdir" --ld-so-preload "$lib" sh -c '
	echo "ld.so.preload: $(cat /etc/ld.so.preload)"
	echo "root maps: $(cat /proc/self/maps | grep -c -F "$1")" | sed "s/: [1-9][0-9]*$/: yes/"
	echo "nobody maps: $(setpriv --reuid=nobody --regid=nogroup --clear-groups cat /proc/self/maps | grep -c -F "$1")" | sed "s/: [1-9][0-9]*$/: yes/"
	echo "written in the guest" >"$2/file"' sh "$lib" "$outdir" 2>&1)
rc=$?
case $mode in
native)
	expect "--ld-so-preload is skipped natively" 77 \
		"SKIP: --ld-so-preload $lib needs the guest; native mode never edits the host's /etc/ld.so.preload" "$rc" "$out"
	;;
*)
	expect "--ld-so-preload, --outdir, status 0" 0 "ld.so.preload: $lib
root maps: yes
nobody maps: yes" "$rc" "$out"
	expect "file written through --outdir" 0 "written in the guest" 0 "$(cat "$outdir/file" 2>&1)"
	;;
esac
rm -rf "$outdir"

# 3. A command that never ends is stopped (boot included: 3 s is short).
out=$("$kt" --timeout 3 sleep 1000 2>&1)
rc=$?
case $mode in
native) expect "--timeout" 124 "" "$rc" "$out" ;;
*) expect "--timeout" 124 "guest-run: timeout: the guest did not finish within 3 s; killed" "$rc" "$out" ;;
esac

[ "$failures" = 0 ] || exit 1
