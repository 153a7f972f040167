#!/bin/sh
# Loading libehsyslog.so makes no syscall of its own: /bin/true with it
# preloaded makes exactly the syscalls, in the same order, that it makes
# with an empty shared object preloaded (the loader's own: open, read,
# stat, map, close).  A constructor, a TLS set-up, dlsym initialising
# malloc (brk, getrandom) or a .bss too large for the data segment's last
# page (one more anonymous mmap) would each show up here.
set -u
lib="$top_builddir/.libs/libehsyslog.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: the ASan runtime the library needs makes syscalls of its own at start-up"
	exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

printf 'int ehs_startup_empty;\n' >"$tmp/empty.c"
if ! ${CC:-cc} -shared -fPIC -o "$tmp/libempty.so" "$tmp/empty.c" 2>"$tmp/cc.err"; then
	echo "SKIP: cannot build an empty shared object:"; cat "$tmp/cc.err"
	exit 77
fi
if ! strace -f -qq -o /dev/null /bin/true 2>"$tmp/strace.err"; then
	echo "SKIP: strace cannot trace here:"; cat "$tmp/strace.err"
	exit 77
fi

# Syscall names, one a line, of /bin/true with $1 preloaded (and the
# library's variables set: none of them may be read at start-up).
syscalls() {
	strace -f -qq -o "$tmp/raw" -E LD_PRELOAD="$1" -E EHSYSLOG_PASSTHROUGH=0 \
		-E EHSYSLOG_CONFIG=/nonexistent /bin/true || return 1
	sed -n 's/^\([0-9]* *\)\{0,1\}\([a-z_0-9]*\)(.*/\2/p' "$tmp/raw"
}

fail=0
syscalls "$tmp/libempty.so" >"$tmp/empty" || fail=1
syscalls "$lib" >"$tmp/ours" || fail=1
n=$(wc -l <"$tmp/empty")
if [ "$n" -lt 5 ]; then
	echo "FAIL: strace output not understood"; cat "$tmp/raw"
	fail=1
elif ! cmp -s "$tmp/empty" "$tmp/ours"; then
	echo "FAIL: syscalls differ from an empty preloaded object's (< empty, > ours):"
	diff "$tmp/empty" "$tmp/ours"
	fail=1
else
	echo "ok: $n syscalls, the same as with an empty preloaded object"
fi
# And it was our library that the loader opened.
grep -q 'openat(.*libehsyslog\.so' "$tmp/raw" || { echo "FAIL: library not loaded"; fail=1; }
exit $fail
