#!/bin/sh
# <ehsyslog.h> compiled as C++ (tests/bridge/cxx_header.cc, two units
# linked into one shared object) by clang++ and by $CXX, for every
# standard from C++11 to C++23 (c++2b where the compiler has no c++23
# yet), at -O2 (and -O0 for the oldest and the newest), with -Wall
# -Wextra -pedantic -Werror.  In the
# object: one site for an inline function both units call, one per
# template instantiation, and no __cxa_guard_acquire (the sites are
# zero-initialised: no lock, safe in a signal handler).  Without clang++
# the $CXX part runs and the test skips, saying so.
set -u
src=${top_srcdir:-.}/tests/bridge/cxx_header.cc
work=$(mktemp -d "${TMPDIR:-/tmp}/ehsyslog-cxx.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# count NAME: how many symbols of the object demangle to NAME.
count() {
	nm -C "$work/s.so" | cut -d' ' -f3- | grep -c -x -F -e "$1" -e "int $1" || true
}

# check CXX STD OPT: compiles, links and inspects one build.
check() {
	cxx=$1 std=$2 opt=$3 before=$failures
	for tu in 1 2; do
		"$cxx" -std="$std" "$opt" -Wall -Wextra -pedantic -Werror -fPIC -DTU=$tu \
			-I"${top_srcdir:-.}/include" -c "$src" -o "$work/tu$tu.o" 2>"$work/err" || {
			fail "$cxx -std=$std $opt (TU $tu): $(cat "$work/err")"
			return
		}
	done
	"$cxx" -shared "$work/tu1.o" "$work/tu2.o" -o "$work/s.so" 2>"$work/err" || {
		fail "$cxx -std=$std $opt: link: $(cat "$work/err")"
		return
	}
	for want in 'shared_site(int)::ehs_emit_site_' 'shared_cache(int)::ehs_event_cache_' \
		'per_type<int>(int)::ehs_emit_site_' \
		'per_type<unsigned char>(unsigned char)::ehs_emit_site_'; do
		n=$(count "$want")
		[ "$n" = 1 ] || fail "$cxx -std=$std $opt: $n symbols $want, not 1"
	done
	! nm "$work/s.so" | grep -q __cxa_guard ||
		fail "$cxx -std=$std $opt: a call site's static has a guard (a lock)"
	[ $failures -ne $before ] || echo "ok: $cxx -std=$std $opt"
}

# run CXX: every standard.
run() {
	for std in c++11 c++14 c++17 c++20 c++23; do
		if [ $std = c++23 ] && ! echo | "$1" -std=c++23 -x c++ -E - >/dev/null 2>&1; then
			echo "$1: no -std=c++23, its draft -std=c++2b instead"
			std=c++2b
		fi
		# -O0 too (always_inline, no folding) for the oldest and newest.
		case $std in
		c++11 | c++23 | c++2b) opts='-O0 -O2' ;;
		*) opts=-O2 ;;
		esac
		for opt in $opts; do
			check "$1" $std $opt
		done
	done
}

skip=
if [ -n "${CXX:-}" ] && command -v "$CXX" >/dev/null; then
	run "$CXX"
fi
if [ -n "${CLANGXX:-}" ] && command -v "$CLANGXX" >/dev/null; then
	run "$CLANGXX"
else
	skip="no clang++ (apt-get install clang)"
fi
[ $failures -eq 0 ] || exit 1
if [ -n "$skip" ]; then
	echo "SKIP: $skip"
	exit 77
fi
exit 0
