#!/bin/sh
# ehsyslog preload on a temporary list (EHSYSLOG_LD_SO_PRELOAD): the
# enable/disable round trip keeps other entries and comments byte for
# byte, unsafe or broken libraries are refused (in or through a
# directory not root's alone, sticky ones like /tmp included), 20
# concurrent edits lose nothing.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

safe_library
list=$T/etc/ld.so.preload
mkdir "$T/etc"
export EHSYSLOG_LD_SO_PRELOAD="$list" EHSYSLOG_LIBRARY="$lib" EHSYSLOG_SYSTEMD_DIR="$T/system"
# A tracefs where events could be written, whatever this machine has:
# enable warns otherwise (checked below).
mkdir "$T/tracefs"
: >"$T/tracefs/user_events_data"
export EHSYSLOG_TRACEFS="$T/tracefs"

# Fresh file.
expect 0 "$EHSYSLOG" preload status
expect_line out "disabled: $lib is not listed in $list"
expect_line out "no service has an ehsyslog drop-in in $T/system"
expect 0 "$EHSYSLOG" preload enable
expect_line out "added $lib to $list"
expect_empty err
printf '%s\n' "$lib" >"$T/want"
cmp -s "$list" "$T/want" || fail "new list is '$(cat "$list")'"
[ "$(stat -c %a "$list")" = 644 ] || fail "new list has mode $(stat -c %a "$list")"
expect 0 "$EHSYSLOG" preload status
expect_line out "enabled: $lib is listed in $list"
expect 0 "$EHSYSLOG" preload enable
expect_line out "$lib is already listed in $list"
cmp -s "$list" "$T/want" || fail "second enable changed the list"
expect 0 "$EHSYSLOG" preload disable
expect_line out "removed $lib from $list (nothing else was left: file removed)"
[ ! -e "$list" ] || fail "disable left an empty $list"
expect 0 "$EHSYSLOG" preload disable
expect_line out "$lib is not listed in $list: nothing to do"

# Existing entries, comments and the mode stay as they were.
printf '# site libraries\n/lib/a.so:/lib/b.so\n/lib/c.so # keep' >"$list"
chmod 640 "$list"
cp "$list" "$T/before"
expect 0 "$EHSYSLOG" preload enable
printf '# site libraries\n/lib/a.so:/lib/b.so\n/lib/c.so # keep\n%s\n' "$lib" >"$T/want"
cmp -s "$list" "$T/want" || fail "enable gave '$(cat "$list")'"
[ "$(stat -c %a "$list")" = 640 ] || fail "enable changed the mode to $(stat -c %a "$list")"
expect 0 "$EHSYSLOG" preload disable
printf '# site libraries\n/lib/a.so:/lib/b.so\n/lib/c.so # keep\n' >"$T/want"
cmp -s "$list" "$T/want" || fail "disable gave '$(cat "$list")'"

# Our entry in the middle of a line: only it goes.
printf '/lib/a.so:%s /lib/b.so # why\n%s\n' "$lib" "$lib" >"$list"
expect 0 "$EHSYSLOG" preload disable
printf '/lib/a.so /lib/b.so # why\n' >"$T/want"
cmp -s "$list" "$T/want" || fail "disable in a line gave '$(cat "$list")'"
# In a comment it does not count.
printf '# %s\n' "$lib" >"$list"
expect 0 "$EHSYSLOG" preload status
expect_line out "disabled: $lib is not listed in $list"
# --library picks another entry.
expect 0 "$EHSYSLOG" preload status --library /lib/a.so
expect_line out "disabled: /lib/a.so is not listed in $list"
# -L is its documented short form; -l, the old one, stays for scripts.
expect 0 "$EHSYSLOG" preload status -L /lib/a.so
expect_line out "disabled: /lib/a.so is not listed in $list"
expect 0 "$EHSYSLOG" preload status -l /lib/a.so
expect_line out "disabled: /lib/a.so is not listed in $list"
rm -f "$list"

# Refusals, the file untouched.
printf '/lib/keep.so\n' >"$list"
cp "$list" "$T/before"
expect 2 "$EHSYSLOG" preload enable --library relative/lib.so
expect_line err "ehsyslog preload: refusing relative/lib.so: the library path must be absolute"
expect 1 "$EHSYSLOG" preload enable --library "$T/missing.so"
expect_line err "ehsyslog preload: refusing $T/missing.so: No such file or directory"
printf 'not a library\n' >"$S/text.so"
expect 1 "$EHSYSLOG" preload enable --library "$S/text.so"
expect_text err "ehsyslog preload: refusing $S/text.so: ld.so cannot preload it into /bin/true: ERROR: ld.so: object '$S/text.so' from LD_PRELOAD cannot be preloaded"
cp "$lib" "$S/nobody.so"
chown nobody "$S/nobody.so"
expect 1 "$EHSYSLOG" preload enable --library "$S/nobody.so"
expect_line err "ehsyslog preload: refusing $S/nobody.so: not owned by root (its owner could run code in every process)"
cp "$lib" "$S/gw.so"
chmod 664 "$S/gw.so"
expect 1 "$EHSYSLOG" preload enable --library "$S/gw.so"
expect_line err "ehsyslog preload: refusing $S/gw.so: writable by group or others (mode 0664)"
# refused_dir LIB DIR MODE: enable refuses LIB naming DIR, writable by
# group or others with MODE.
refused_dir() {
	expect 1 "$EHSYSLOG" preload enable --library "$1"
	expect_line err "ehsyslog preload: refusing $1: directory $2 is writable by group or others (mode $3): sticky or not, whoever may write there could put another library at this path"
}
mkdir "$S/open" "$S/group"
chmod 777 "$S/open"
chmod 775 "$S/group"
cp "$lib" "$S/open/lib.so"
cp "$lib" "$S/group/lib.so"
refused_dir "$S/open/lib.so" "$S/open" 0777
refused_dir "$S/group/lib.so" "$S/group" 0775
mkdir "$S/theirs"
chown nobody "$S/theirs"
cp "$lib" "$S/theirs/lib.so"
expect 1 "$EHSYSLOG" preload enable --library "$S/theirs/lib.so"
expect_line err "ehsyslog preload: refusing $S/theirs/lib.so: directory $S/theirs is not owned by root (its owner could put another library at this path)"
# A sticky directory anyone may write, like /tmp: once the library is
# gone (a reboot, tmpfiles), anyone may create one at its path.  Even a
# root-owned 755 directory below it does not help.
mkdir -m 1777 "$S/sticky"
mkdir -m 755 "$S/sticky/build"
cp "$lib" "$S/sticky/build/libehsyslog.so.0"
refused_dir "$S/sticky/build/libehsyslog.so.0" "$S/sticky" 1777
# The real /tmp (or TMPDIR), where $T is, when it is such a directory.
tmp=$(dirname "$T")
if [ "$(stat -c '%u %a' "$tmp")" = "0 1777" ]; then
	cp "$lib" "$T/lib.so"
	refused_dir "$T/lib.so" "$tmp" 1777
else
	echo "SKIP (sub-check): $tmp is not a root-owned 1777 directory: the library in it not tried"
fi
# Symbolic links: the directories of the path as given and of its target
# count, whichever is unsafe.
ln -s "$S/open/lib.so" "$S/link.so"
refused_dir "$S/link.so" "$S/open" 0777
ln -s "$S/sticky/build/libehsyslog.so.0" "$S/link-sticky.so"
refused_dir "$S/link-sticky.so" "$S/sticky" 1777
ln -s "$lib" "$S/sticky/safe-target.so"
refused_dir "$S/sticky/safe-target.so" "$S/sticky" 1777
cmp -s "$list" "$T/before" || fail "a refused enable changed the list"
# A symbolic link as the list itself.
rm "$list"
ln -s "$T/before" "$list"
expect 1 "$EHSYSLOG" preload enable
expect_line err "ehsyslog preload: $list is a symbolic link: refusing to replace it (edit its target by hand)"
rm "$list"

# No permission on the directory of the list: exit 4, file and permission named.
if command -v setpriv >/dev/null; then
	mkdir "$T/locked"
	printf '/lib/x.so\n' >"$T/locked/ld.so.preload"
	chmod 755 "$T/locked"
	expect 4 as_nobody env EHSYSLOG_LD_SO_PRELOAD="$T/locked/ld.so.preload" "$EHSYSLOG" preload disable --library /lib/x.so
	expect_line err "ehsyslog preload: cannot create the lock file $T/locked/.ld.so.preload.lock: Permission denied (needs root, or write permission on its directory)"
fi

# 20 concurrent edits of different entries: each enable of lib$i and, for
# half of them, a later disable, all racing; the list must end with
# exactly the 10 survivors plus the original entry, each once.
printf '/lib/keep.so\n' >"$list"
i=0
while [ $i -lt 20 ]; do
	cp "$lib" "$S/lib$i.so"
	i=$((i + 1))
done
i=0
while [ $i -lt 20 ]; do
	(
		"$EHSYSLOG" preload enable --library "$S/lib$i.so" >/dev/null || echo "enable $i failed" >>"$T/race"
		if [ $((i % 2)) = 1 ]; then
			"$EHSYSLOG" preload disable --library "$S/lib$i.so" >/dev/null || echo "disable $i failed" >>"$T/race"
		fi
	) &
	i=$((i + 1))
done
wait
checks=$((checks + 1))
[ ! -e "$T/race" ] || fail "concurrent edits failed: $(cat "$T/race")"
{
	echo /lib/keep.so
	i=0
	while [ $i -lt 20 ]; do
		echo "$S/lib$i.so"
		i=$((i + 2))
	done
} | sort >"$T/want"
sort "$list" >"$T/got"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" || fail "after concurrent edits: $(cat "$list")"
checks=$((checks + 1))
[ "$(ls -A "$T/etc")" = "$(printf '.ld.so.preload.lock\nld.so.preload')" ] || fail "left behind in $T/etc: $(ls -A "$T/etc")"

# Where no event can be written enable still does its job, exit 0, and
# says why nothing will come of it.
rm -f "$list"
mkdir "$T/no_user_events"
expect 0 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" preload enable
expect_line out "added $lib to $list"
expect_line err "ehsyslog preload: warning: no event can be written here: $T/no_user_events/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS); programs will load the library, their calls passing through as without it"
# Already listed: the same warning, since it is as true.
expect 0 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" preload enable
expect_text err "ehsyslog preload: warning: no event can be written here: "
# disable and status never warn.
expect 0 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" preload status
expect_empty err
expect 0 env EHSYSLOG_TRACEFS="$T/no_user_events" "$EHSYSLOG" preload disable
expect_empty err
# This machine's own tracefs, freshly mounted in a namespace of the test's.
if without_user_events "enable's warning on this machine's tracefs"; then
	expect 0 env -u EHSYSLOG_TRACEFS "$ns" fresh -- "$EHSYSLOG" preload enable
	expect_no_user_events preload "programs will load the library, their calls passing through as without it"
	expect 0 "$EHSYSLOG" preload disable
fi

finish
