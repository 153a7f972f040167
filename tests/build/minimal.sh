#!/bin/sh
# The library builds with nothing but a C toolchain: configure, with
# pkg-config pointed at an empty directory so that it finds none of the
# tool's, the plugin's or the tests' libraries, must turn those parts off
# and say why, `make` must build libehsyslog.so (needing libc only),
# `make check` and `make dist` must fail saying why, and --enable-tools
# must stop configure.  Headers found without pkg-config stay visible:
# scripts/minimal-build-check proves the same in a chroot without them.
set -u

builddir=${top_builddir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/ehsyslog-minimal.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
# Our own makes, not jobs of the make that runs this test.
unset MAKEFLAGS MFLAGS MAKELEVEL

fail() {
	echo "FAIL: $*"
	exit 1
}

# configure refuses a second build of a source tree configured in place,
# so build from what the tarball would hold.
make -s -C "$builddir" distdir distdir="$work/src" >/dev/null || exit 99
mkdir "$work/pc" "$work/b"
cd "$work/b" || exit 99
export PKG_CONFIG_LIBDIR="$work/pc" PKG_CONFIG_PATH=

echo "== configure, pkg-config finding nothing"
../src/configure --quiet -C >summary 2>&1 || { cat summary; fail "configure failed"; }
cat summary
for part in 'tool ' 'plugin ' 'tests '; do
	grep -q "^  $part.* no (missing: " summary ||
		fail "the summary does not say why '$part' is off"
done
grep -q '^  library .* yes$' summary || fail "the summary has no library line"

echo "== make"
make -s -j2 >make.log 2>&1 || { cat make.log; fail "make failed"; }
[ -f .libs/libehsyslog.so.0 ] || fail "no .libs/libehsyslog.so.0"
[ ! -e ehsyslog ] || fail "the tool was built"
[ ! -e src/traceevent/plugin_ehsyslog.la ] || fail "the plugin was built"
needed=$(readelf -d .libs/libehsyslog.so.0 | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "libehsyslog.so.0 needs: $needed"
for lib in $needed; do
	case $lib in
	libc.so.* | ld-linux*) ;;
	*) fail "libehsyslog.so.0 needs $lib" ;;
	esac
done

echo "== make check, tests off"
if make -s check >check.log 2>&1; then
	cat check.log
	fail "make check passed with no tests built"
fi
cat check.log
grep -q 'no tests were built: missing: ' check.log || fail "make check does not say why"

echo "== make dist, parts off"
if make -s dist >dist.log 2>&1; then
	fail "make dist made a tarball without the parts that are off"
fi
grep -q 'make dist: configure with every part first' dist.log || { cat dist.log; fail "make dist does not say why"; }

# The first run's cache (-C) makes this one quick.
echo "== configure --enable-tools, pkg-config finding nothing"
if ../src/configure --quiet -C --enable-tools >enable.log 2>&1; then
	fail "configure --enable-tools passed without the tool's libraries"
fi
tail -n 1 enable.log
grep -q 'enable-tools, but missing: libbsd' enable.log || fail "no clear error"
echo "PASS"
