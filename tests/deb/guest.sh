#!/bin/sh
# The Debian packages on a machine, in the test guest (scripts/deb-check
# runs it there through scripts/kernel-test; never natively, as it
# installs packages):
#   sh tests/deb/guest.sh DIR     (DIR holds the .debs)
# With /etc/ld.so.preload absent, and holding another library's line:
# dpkg -i of the three packages, `ehsyslog preload enable` with no
# --library names the packaged library, python3's syslog(3) call arrives
# as an event, and dpkg --purge leaves /etc/ld.so.preload byte for byte as
# it was.  Removing libehsyslog0 alone while it is preloaded, with and
# without the ehsyslog command installed, leaves a machine whose programs
# start without the loader's complaint; an entry its prerm cannot take out
# stops the removal instead.
set -u
debs=$(cd "${1:?usage: guest.sh DIR}" && pwd)
# shellcheck source=tests/e2e/lib.sh disable=SC1091 # pass, fail, tail_start
. "$(cd "$(dirname "$0")/../.." && pwd)/tests/e2e/lib.sh"

if [ "${EHSYSLOG_DEB_GUEST:-}" != y ] || [ ! -f /run/ehsyslog/cmd ]; then
	echo "ERROR: not in the test guest (it writes to /usr and /etc): run scripts/deb-check"
	exit 99
fi
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=/usr/lib/$ma/libehsyslog.so.0
tool=/usr/bin/ehsyslog
deb() { ls "$debs/$1"_*.deb; }
ours="$(deb libehsyslog0) $(deb libehsyslog-dev) $(deb ehsyslog)"
other=/usr/lib/$ma/libdl.so.2 # a stub in glibc 2.34+: harmless to preload
preload=/etc/ld.so.preload
stage=/run/deb-test
work=$(mktemp -d /tmp/deb-test.XXXXXX) || exit 99
started=$(date +%s)
# step WHAT: the time so far, for the log (the guest is emulated: slow).
step() { echo "== $(($(date +%s) - started)) s: $*"; }

# The guest's root is the host's, read-only.  Each directory dpkg writes
# into becomes a tmpfs of links to its entries (a link keeps its own
# text), bind-mounted over it: the directories holding the packages'
# files (their nearest existing ancestor when new), /etc, ldconfig's
# cache, and dpkg's database, whose lock files must be real files (dpkg
# replaces the others by renaming new ones over them).  man-db's trigger
# is turned off: its cache stays read-only.
mkdir -p "$stage/orig" "$stage/new" &&
	mount -t tmpfs -o mode=755 deb-test "$stage/new" || exit 99
links() { # ORIG NEW
	find "$1" -mindepth 1 -maxdepth 1 -type l -exec cp -P -t "$2" {} + &&
		find "$1" -mindepth 1 -maxdepth 1 ! -type l -exec ln -s -t "$2" {} +
}
writable() { # DIR
	# An ancestor made a link by an earlier call (the plugin directory's
	# parent, inside the multiarch directory) becomes a directory first.
	a=
	for part in $(echo "${1#/}" | tr / ' '); do
		a="$a/$part"
		[ "$a" != "$1" ] || break
		case $(readlink "$a" 2>/dev/null) in "$stage/orig"/*) writable_one "$a" ;; esac
	done
	writable_one "$1"
}
writable_one() { # DIR
	if [ -L "$1" ]; then # an entry of a directory made writable before
		orig=$(readlink "$1")
		rm "$1" && mkdir "$1" && links "$orig" "$1"
	else
		mkdir -p "$stage/orig$1" "$stage/new$1" &&
			mount --bind "$1" "$stage/orig$1" &&
			links "$stage/orig$1" "$stage/new$1" &&
			mount --bind "$stage/new$1" "$1"
	fi || {
		echo "ERROR: cannot make $1 writable"
		exit 99
	}
}
# Sorted: a directory comes before those inside it.
for d in $({
	for f in $ours; do dpkg-deb --fsys-tarfile "$f" | tar tf -; done |
		grep -v '/$' | sed 's|^\./|/|; s|/[^/]*$||' | sort -u |
		while read -r parent; do
			while [ ! -d "$parent" ]; do parent=${parent%/*}; done
			echo "$parent"
		done
	printf '%s\n' /etc /var/cache/ldconfig /var/lib/man-db /var/lib/dpkg \
		/var/lib/dpkg/info /var/lib/dpkg/updates /var/lib/dpkg/triggers
} | sort -u); do
	writable "$d"
done
rm -f /var/lib/man-db/auto-update /var/lib/dpkg/lock /var/lib/dpkg/lock-frontend \
	/var/lib/dpkg/triggers/Lock "$preload"
step "writable directories made"

dpkg() { command dpkg --log=/dev/null "$@"; }
# installed: the packages of ours dpkg lists as installed, in name order.
installed() {
	dpkg-query -W -f='${db:Status-Status} ${Package}\n' ehsyslog libehsyslog0 libehsyslog-dev 2>/dev/null |
		sed -n 's/^installed //p' | sort | tr '\n' ' '
}
# set_preload TEXT|-: the file holds TEXT (printf format), or is absent.
set_preload() {
	rm -f "$preload"
	# shellcheck disable=SC2059 # the format is the argument
	[ "$1" = - ] || printf "$1" >"$preload"
}
# save_preload: keeps a copy of the file, or that it is absent.
save_preload() {
	rm -f "$work/preload.saved"
	[ ! -e "$preload" ] || cp -p "$preload" "$work/preload.saved"
}
# same_preload WHAT: the file is byte for byte what save_preload saw.
same_preload() {
	if [ -e "$work/preload.saved" ]; then
		if cmp -s "$work/preload.saved" "$preload"; then
			pass "$1: $preload is byte for byte as before"
		else
			fail "$1: $preload is '$(cat "$preload" 2>&1)', was '$(cat "$work/preload.saved")'"
		fi
	else
		expect_eq "$1: $preload absent as before" absent "$([ -e "$preload" ] && echo present || echo absent)"
	fi
}
# starts_clean WHAT: programs start without any word from the loader.
starts_clean() {
	out=$(sh -c 'echo started' 2>&1)
	expect_eq "$1: a program starts cleanly" started "$out"
}

# enable_and_log WHAT: preload enable with the default library, then an
# event from python3's syslog module (syslog(3) in libc; logger(1) writes
# its own datagrams, so it would prove nothing).
enable_and_log() {
	"$tool" preload enable >"$work/enable" 2>&1 || fail "$1: preload enable: $(cat "$work/enable")"
	expect_eq "$1: preload enable names the packaged library" \
		"added $lib to $preload" "$(cat "$work/enable")"
	expect_eq "$1: $preload ends with the library" "$lib" "$(tail -n 1 "$preload")"
	tail_start "$work/events" 5 --facility user --program debtest || return
	python3 -c 'import syslog
syslog.openlog("debtest")
syslog.syslog(syslog.LOG_WARNING, "through the packaged library")'
	tail_stop "$work/events" 1
	expect_eq "$1: the event" \
		'"n":"Syslog:debtest","message":"through the packaged library","severity":4,"facility":1' \
		"$(sed -n 's/,"errno".*//; s/^{//p' "$work/events")"
}

# unit_installed WHAT: ehsyslog-export.service is installed, enabled
# nowhere, and systemd-analyze verify accepts it as installed.
unit_installed() {
	unit=$(command dpkg -L ehsyslog | grep '/systemd/system/ehsyslog-export\.service$')
	expect_eq "$1: the export unit is installed" present \
		"$([ -n "$unit" ] && [ -f "$unit" ] && echo present || echo absent)"
	expect_eq "$1: the export unit is enabled nowhere" "" \
		"$(find /etc/systemd/system -name ehsyslog-export.service 2>/dev/null)"
	systemd-analyze verify --man=no "$unit" >"$work/verify" 2>&1
	expect_eq "$1: systemd-analyze verify accepts the installed unit" "0 " \
		"$? $(cat "$work/verify")"
}

for case in absent other; do
	if [ $case = absent ]; then set_preload -; else set_preload "# kept\n$other\n"; fi
	save_preload
	step "$case"
	dpkg -i "$(deb libehsyslog0)" "$(deb libehsyslog-dev)" "$(deb ehsyslog)" >"$work/dpkg" 2>&1 ||
		fail "$case: dpkg -i: $(cat "$work/dpkg")"
	step "$case: installed"
	expect_eq "$case: installed" "ehsyslog libehsyslog-dev libehsyslog0 " "$(installed)"
	expect_eq "$case: --help names the packaged library" \
		"Library: $lib (this build's libdir; run and" "$("$tool" --help | grep '^Library: ')"
	expect_eq "$case: the example configuration is valid" 0 \
		"$("$tool" config check >"$work/config" 2>&1; echo $?)"
	unit_installed $case
	enable_and_log $case
	step "$case: event checked"
	dpkg --purge ehsyslog libehsyslog-dev libehsyslog0 >"$work/dpkg" 2>&1 ||
		fail "$case: dpkg --purge: $(cat "$work/dpkg")"
	expect_eq "$case: purged" "" "$(installed)"
	expect_eq "$case: the library is gone" absent "$([ -e "$lib" ] && echo present || echo absent)"
	expect_eq "$case: the configuration is gone" absent \
		"$([ -e /etc/ehsyslog.conf ] && echo present || echo absent)"
	step "$case: purged"
	same_preload "$case: after purge"
	expect_eq "$case: the enable's lock file is gone" absent \
		"$([ -e /etc/.ld.so.preload.lock ] && echo present || echo absent)"
	starts_clean "$case: after purge"
done

# libehsyslog0 removed alone while preloaded: first with the command
# there (its prerm runs "ehsyslog preload disable"), then without it (its
# own exact-line edit).
for case in command no-command; do
	step "$case"
	set_preload "# kept\n$other\n"
	save_preload
	dpkg -i "$(deb libehsyslog0)" "$(deb ehsyslog)" >"$work/dpkg" 2>&1 ||
		fail "$case: dpkg -i: $(cat "$work/dpkg")"
	"$tool" preload enable >/dev/null 2>&1 || fail "$case: preload enable failed"
	[ $case = command ] || dpkg --purge ehsyslog >/dev/null 2>&1 || fail "$case: purge ehsyslog failed"
	dpkg -r libehsyslog0 >"$work/dpkg" 2>&1 || fail "$case: dpkg -r libehsyslog0: $(cat "$work/dpkg")"
	expect_eq "$case: prerm says what it did" "removed $lib from $preload" \
		"$(grep -x "removed $lib from $preload" "$work/dpkg")"
	same_preload "libehsyslog0 removed ($case)"
	starts_clean "libehsyslog0 removed ($case)"
	dpkg --purge ehsyslog libehsyslog0 >/dev/null 2>&1
done

# An entry on another library's line, and no command to edit it: the
# removal stops, the library stays, programs still start cleanly.
step "shared line"
dpkg -i "$(deb libehsyslog0)" >/dev/null 2>&1 || fail "shared line: dpkg -i failed"
set_preload "$other $lib\n"
rc=0
dpkg -r libehsyslog0 >"$work/dpkg" 2>&1 || rc=$?
expect_eq "shared line: dpkg -r fails" 1 "$rc"
expect_eq "shared line: the prerm says why" \
	"$preload still names $lib, which this removal would delete:" \
	"$(grep -x "$preload still names .*" "$work/dpkg")"
expect_eq "shared line: still installed" "libehsyslog0 " "$(installed)"
expect_eq "shared line: $preload untouched" "$other $lib" "$(cat "$preload")"
starts_clean "shared line"

rm -rf "$work"
e2e_finish
