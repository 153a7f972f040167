#!/bin/sh
# Socket calls programs get wrong (tests/preload/hostile_calls.c), each
# in a child in namespaces of its own with the daemons' sockets bound
# there: the transcript (return values, errno, how each child ended, the
# bytes each listener got) must be the same
#   - without the library (the reference),
#   - with LD_PRELOAD=libehsyslog.so in pass-through (no user_events on
#     this host: nothing is traced),
#   - with it in replace mode: no event can be written here, so every
#     call must still reach the kernel and the daemon,
#   - linked over the writer's double with every tracepoint traced
#     (hostile_calls_traced), in pass-through: the events are made from
#     what the kernel took, never from what it refused.
# Needs root for the namespaces.
set -u
b=${top_builddir:-.}/tests/preload
lib=${top_builddir:-.}/.libs/libehsyslog.so
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: hostile.sh needs root for its namespaces"; exit 77; }
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: in an ASan build, ASan's own interceptors check these calls' pointers first and abort"
	exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
env -u LD_PRELOAD EHSYSLOG_CONFIG=/nonexistent "$b/hostile_calls" >"$tmp/ref" 2>"$tmp/ref.err" || {
	echo "FAIL: hostile_calls without the library: exit $?: $(cat "$tmp/ref.err")"
	exit 1
}
# The reference holds what the cases are about: bad pointers refused by
# the kernel, not crashes.
for want in "sendmsg(unconnected, 16) = -1 errno 14" "write(devlog, NULL, 10) = -1 errno 14" \
	"sendmmsg(devlog, second bad) = 1" "devlog got 13:<13>good: one" \
	"write(devlog, 300000 bytes) = -1 errno 90" "handler writes = 18 14 21" \
	"connect(udp 127.0.0.1:53) = 0"; do
	grep -qF "$want" "$tmp/ref" || {
		echo "FAIL: the reference transcript lacks '$want':"
		cat "$tmp/ref"
		exit 1
	}
done
if grep -q "killed by signal" "$tmp/ref"; then
	echo "FAIL: a case crashes without the library:"
	cat "$tmp/ref"
	exit 1
fi
run() {
	name=$1
	shift
	env EHSYSLOG_CONFIG=/nonexistent "$@" >"$tmp/$name" 2>"$tmp/$name.err"
	rc=$?
	if [ $rc != 0 ] || ! cmp -s "$tmp/ref" "$tmp/$name"; then
		echo "FAIL: $name: exit $rc, transcript differs from the one without the library:"
		diff "$tmp/ref" "$tmp/$name"
		cat "$tmp/$name.err"
		fail=1
	else
		echo "PASS: $name: $(grep -c '^  ' "$tmp/ref") lines as without the library"
	fi
}
run preload-pass LD_PRELOAD="$lib" "$b/hostile_calls"
run preload-replace LD_PRELOAD="$lib" EHSYSLOG_PASSTHROUGH=0 "$b/hostile_calls"
run traced-pass "$b/hostile_calls_traced"
exit $fail
