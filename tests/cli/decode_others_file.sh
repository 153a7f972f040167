#!/bin/sh
# ehsyslog decode run by root on a file another user owns or may write:
# read from a private copy, so that the owner cutting the file while it
# is read (tests/cli/shrink_on_map.c, at the moment decode maps it)
# changes nothing and kills nothing; a file only root may write is read
# in place.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (to give files to nobody)"
shim=$top_builddir/tests/cli/.libs/libshrink_on_map.so
[ -f "$shim" ] || skip "$shim not built"
# (ASan's own mmap would come before the shim's.)
[ "${sanitizers:-no}" != yes ] || skip "a sanitizer build: ASan intercepts mmap before the shim"
data=${top_srcdir:-.}/tests/data/perf.data
expect 0 "$EHSYSLOG" decode "$data"
cp "$T/out" "$T/want"
checks=$((checks + 1))
[ "$(wc -l <"$T/want")" -gt 100 ] || fail "tests/data/perf.data decoded to $(wc -l <"$T/want") lines"

# cut_while_read OWNER MODE: decode of a copy of perf.data given to
# OWNER with MODE, cut when mapped; the whole file's lines expected.
cut_while_read() {
	cp "$data" "$T/rec.data"
	chown "$1" "$T/rec.data"
	chmod "$2" "$T/rec.data"
	expect 0 env LD_PRELOAD="$shim" SHRINK_FILE="$T/rec.data" "$EHSYSLOG" decode "$T/rec.data"
	checks=$((checks + 1))
	cmp -s "$T/want" "$T/out" || fail "decode of a file of $1's ($2) cut while read printed $(wc -l <"$T/out") lines"
	expect_empty err
	checks=$((checks + 1))
	[ "$(wc -c <"$T/rec.data")" = "$(wc -c <"$data")" ] || fail "the file of $1's ($2) was mapped"
}
cut_while_read nobody 0644
cut_while_read root 0664
cut_while_read root 0646

# Root's own, not writable by others: mapped in place (so the shim does
# cut it; what decode then prints is not checked).
cp "$data" "$T/own.data"
chmod 0644 "$T/own.data"
env LD_PRELOAD="$shim" SHRINK_FILE="$T/own.data" "$EHSYSLOG" decode "$T/own.data" >/dev/null 2>&1
checks=$((checks + 1))
[ "$(wc -c <"$T/own.data")" = 200 ] || fail "root's own file was not mapped in place (the shim did not cut it)"
finish
