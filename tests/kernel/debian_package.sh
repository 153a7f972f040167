#!/bin/sh
# scripts/debian-kernel-package --config-only: the .config it writes is
# Debian's own configuration of the source's version (taken from a
# Debian package, checked here with dpkg) with CONFIG_USER_EVENTS=y and
# the documented changes, and nothing else differs but the lines naming
# the toolchain.  The kernel build itself (hours) is not run.  Skips where
# no linux-source-X.Y (6.4 or later) or linux-config-X.Y is installed and
# cannot be (not root, or apt fails).
set -u

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
work=$(mktemp -d "${TMPDIR:-/tmp}/ehsyslog-debkernel.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL

fail() {
	echo "FAIL: $*"
	exit 1
}
command -v dpkg-query >/dev/null || {
	echo "SKIP: not a Debian system (no dpkg-query)"
	exit 77
}

start=$(date +%s)
"$srcdir/scripts/debian-kernel-package" --config-only --output "$work/out" >"$work/stdout" 2>"$work/stderr"
rc=$?
echo "--config-only: exit $rc in $(($(date +%s) - start)) s"
cat "$work/stderr"
if [ "$rc" != 0 ]; then
	if grep -Eq 'missing packages|apt-get install .* failed|no linux-source|no Debian configuration' "$work/stderr"; then
		echo "SKIP: $(tail -n 1 "$work/stderr")"
		exit 77
	fi
	fail "scripts/debian-kernel-package --config-only failed"
fi
cfg=$work/out/config
[ -s "$cfg" ] || fail "no $cfg"

# The configuration it says it started from: a file of an installed
# Debian package of exactly the source's version, copied unchanged.
line=$(grep "Debian's configuration " "$work/stderr") || fail "it does not say which configuration it used"
base=$(echo "$line" | sed -n "s/.*Debian's configuration \([^ ]*\) (.*/\1/p")
srcpkg=$(echo "$line" | sed -n 's/^debian-kernel-package: \(linux-source-[0-9.]*\) .*/\1/p')
if [ ! -f "$base" ] || [ -z "$srcpkg" ]; then
	fail "cannot read the configuration or the source from: $line"
fi
owner=$(dpkg-query -S "$base" 2>/dev/null | cut -d: -f1)
[ -n "$owner" ] || fail "$base belongs to no Debian package"
[ "$(dpkg-query -W -f='${Version}' "$owner")" = "$(dpkg-query -W -f='${Version}' "$srcpkg")" ] ||
	fail "$base is from $owner $(dpkg-query -W -f='${Version}' "$owner"), not of $srcpkg's version"
echo "Debian's configuration: $base ($owner)"
case $base in
*.xz) xz -dc "$base" >"$work/debian" ;;
*) cp "$base" "$work/debian" ;;
esac
cmp -s "$work/debian" "$work/out/config.debian" || fail "config.debian is not $base"
[ "$(grep -c '^CONFIG_' "$work/debian")" -gt 3000 ] || fail "$base is not a distribution's configuration"

grep -qx 'CONFIG_USER_EVENTS=y' "$cfg" || fail "no CONFIG_USER_EVENTS=y"

# Both as sorted NAME=VALUE lines ("is not set" as =n), then diff.
norm() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*=.*\)$/\1/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1=n/p' "$1" | LC_ALL=C sort
}
norm "$work/debian" >"$work/a"
norm "$cfg" >"$work/b"
diff "$work/a" "$work/b" | sed -n 's/^[<>] //p' >"$work/lines"
echo "lines that differ from Debian's:"
diff "$work/a" "$work/b" | grep '^[<>]'
# Each differing option: one of the documented changes, with its value,
# or a line naming the toolchain.
sed 's/=.*//' "$work/lines" | LC_ALL=C sort -u >"$work/names"
while read -r name; do
	new=$(grep "^$name=" "$work/b" | sed 's/^[^=]*=//')
	case $name in
	USER_EVENTS) want=y ;;
	LOCALVERSION) want='"-userevents"' ;;
	SYSTEM_TRUSTED_KEYS | SYSTEM_REVOCATION_KEYS) want='""' ;;
	MODULE_SIG_KEY) want='"certs/signing_key.pem"' ;;
	MODULE_SIG_ALL) want=y ;;
	CC_VERSION_TEXT | GCC_VERSION | AS_VERSION | LD_VERSION | PAHOLE_VERSION | RUSTC_* | BUILD_SALT) continue ;;
	*) fail "$name differs from Debian's: $(grep "^$name=" "$work/a" || echo absent) -> ${new:-absent}" ;;
	esac
	# An option Kconfig drops (its dependencies off) is absent: fine too.
	[ -z "$new" ] || [ "$new" = "$want" ] || fail "$name=$new, expected $want"
done <"$work/names"
echo "PASS"
