#!/bin/sh
# Runs the builder's Check programs under valgrind (no forking, so every
# test runs in the process valgrind watches).  Any memory error fails.
set -u
bindir="${top_builddir:-.}/tests/eventheader"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed"
	exit 77
fi
log=$(mktemp) || exit 99
trap 'rm -f "$log"' EXIT
status=0
for t in test_meta test_payload test_event test_names test_golden; do
	bin="$bindir/$t"
	if grep -q __asan_init "$bin" 2>/dev/null; then
		echo "SKIP: $t is built with AddressSanitizer, which valgrind cannot run"
		exit 77
	fi
	echo "== $t"
	CK_FORK=no valgrind -q --error-exitcode=1 --leak-check=full \
		--errors-for-leak-kinds=definite "$bin" 2>"$log"
	rc=$?
	cat "$log" >&2
	# Older valgrind gives up on newer DWARF (clang's default DWARF 5).
	if grep -q "debuginfo reader" "$log"; then
		echo "SKIP: this valgrind cannot read $t's debug info (try CFLAGS=-gdwarf-4)"
		exit 77
	fi
	[ "$rc" -eq 0 ] || status=1
done
exit "$status"
