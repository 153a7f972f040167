#!/bin/sh
# libehsyslog.so exports exactly the names of libehsyslog.sym, unversioned,
# and calls none of them through its PLT or GOT.  Preloaded, the library
# comes first in every process's symbol lookup: each name it exports
# replaces another library's function of that name, and each call of its
# own export through the PLT goes to whichever object defines that name
# first.  debian/libehsyslog0.symbols names the same list.  readelf
# reads the ELF of any architecture.
set -u
lib="$top_builddir/.libs/libehsyslog.so"
list="$top_srcdir/libehsyslog.sym"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
command -v readelf >/dev/null 2>&1 || { echo "SKIP: no readelf (binutils)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
LC_ALL=C
export LC_ALL
fail=0

sort -u "$list" >"$tmp/want"
# The defined dynamic symbols, a version (name@@V) left in the name.
readelf --dyn-syms -W "$lib" |
	awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") { print $8 }' | sort -u >"$tmp/exports"
if ! cmp -s "$tmp/want" "$tmp/exports"; then
	comm -13 "$tmp/want" "$tmp/exports" | sed 's/^/FAIL: exported, not in libehsyslog.sym: /'
	comm -23 "$tmp/want" "$tmp/exports" | sed 's/^/FAIL: not exported (unversioned): /'
	fail=1
fi

# Calls and addresses through the PLT or GOT, by the name they bind to.
readelf -rW "$lib" | awk '$3 ~ /_(JUMP_SLOT|GLOB_DAT)$/ { sub(/@.*/, "", $5); print $5 }' |
	sort -u >"$tmp/bound"
sed 's/@.*//' "$tmp/exports" | sort -u | comm -12 - "$tmp/bound" >"$tmp/self"
if [ -s "$tmp/self" ]; then
	sed 's/^/FAIL: calls its own export through the PLT or GOT: /' "$tmp/self"
	fail=1
fi

debian="$top_srcdir/debian/libehsyslog0.symbols"
if [ -f "$debian" ]; then
	sed -n 's/^ \([^@]*\)@Base .*/\1/p' "$debian" | sort -u >"$tmp/debian"
	if ! cmp -s "$tmp/want" "$tmp/debian"; then
		echo "FAIL: debian/libehsyslog0.symbols does not name what libehsyslog.sym lists:"
		diff "$tmp/want" "$tmp/debian"
		fail=1
	fi
fi

[ $fail = 0 ] && echo "ok: $(wc -l <"$tmp/exports") exports, as libehsyslog.sym lists; none called through the PLT"
exit $fail
