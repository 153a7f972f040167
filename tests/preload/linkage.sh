#!/bin/sh
# libehsyslog.so depends on libc only.  What it exports: exports.sh.
set -u
lib="$top_builddir/.libs/libehsyslog.so"
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
fail=0
want=libc.so.6
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
# An ASan/UBSan build also needs the sanitizers' runtimes, nothing else.
[ "${sanitizers:-no}" = yes ] && needed=$(printf '%s\n' "$needed" | grep -v -E '^lib(a|ub)san\.so')
if [ "$needed" != "$want" ]; then
	echo "FAIL: NEEDED is '$needed', want only $want"
	fail=1
fi
[ $fail = 0 ] && echo "ok: libc only"
exit $fail
