#!/bin/sh
# The set-up docs/security.md gives for a group that may write events
# and read none, applied as written there (in a kernel with user_events,
# one guest boot; the group is a number, the guest's /etc being
# read-only): a member's syslog() reaches root's tail and a non-member's
# does not; the member can open neither root's tail instance (mode 0700,
# root's) nor the top-level buffers; root's tail gets root's message.
# Then the set-up the page gave before (the group on the tracefs
# directory), which hands the group every tracefs file: the member can
# read the top-level trace, but still not a tail's instance.  Last, a
# tail that cannot make its instance private exits, leaving none.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"

in_kernel "$0" "$@"

command -v setpriv >/dev/null || skip "setpriv is not installed: cannot run as a group member"
# A group no one has: only the member below is given it.
GID=4242
host=$(uname -n)
# start_tail sets pid_<name>.
pid_doc='' pid_old=''
doc=$top_srcdir/docs/security.md
member_env="LD_PRELOAD=libehsyslog.so EHSYSLOG_CONFIG=/nonexistent/ehsyslog.conf"

# The host's tracefs, when the test runs natively, gets its modes back.
saved=$(stat -c '%a %u %g' "$TR" "$TR/user_events_data") || exit 99
# shellcheck disable=SC2317 # called by the EXIT trap
restore() {
	printf '%s\n' "$saved" | {
		read -r m u g && chown "$u:$g" "$TR" && chmod "$m" "$TR"
		read -r m u g && chown "$u:$g" "$TR/user_events_data" && chmod "$m" "$TR/user_events_data"
	}
	rm -rf "$T" ${S:+"$S"}
}
trap restore EXIT

# member [--groups G] CMD...: tests/as-nobody CMD..., in the group GID
# (or G: none with '').
# shellcheck disable=SC2317 # called through expect
member() {
	groups=$GID
	if [ "$1" = --groups ]; then
		groups=$2
		shift 2
	fi
	if [ -n "$groups" ]; then
		set -- --groups "$groups" "$@"
	fi
	"$top_srcdir/tests/as-nobody" "$@"
}
# member_logs [--groups G] IDENT MESSAGE: the logger under the preload, as
# a member: user.info MESSAGE.
member_logs() {
	g=$GID
	if [ "$1" = --groups ]; then
		g=$2
		shift 2
	fi
	# shellcheck disable=SC2086 # member_env is words
	expect 0 member --groups "$g" --stage "$BUILT_LIBRARY" --stage "$LOGGER" -- \
		env $member_env "$LOGGER" "$1" 1 6 1 "$2"
	expect_empty err
}
# cannot_open FILE: the member's open of FILE for reading fails: EACCES.
cannot_open() {
	expect 1 member dd if="$1" of=/dev/null count=0 status=none
	expect_line err "dd: failed to open '$1': Permission denied"
}
# private_instance NAME: tail NAME's instance is root's, mode 0700.
private_instance() {
	eval "p=\$pid_$1"
	checks=$((checks + 1))
	got=$(stat -c '%a %U %G' "$(instance_of "$p")")
	[ "$got" = "700 root root" ] || fail "tail $1's instance is $got, expected 700 root root"
}

# The documented set-up, its lines as they are, the group's name a number.
sed -n '/^<!-- applied as written by tests\/cli\/kernel_group.sh -->$/,/^```$/p' "$doc" |
	sed '1,2d;$d' >"$T/setup.sh"
checks=$((checks + 1))
grep -q logwriters "$T/setup.sh" || fail "no set-up for the group logwriters in $doc: '$(cat "$T/setup.sh")'"
sed "s/\\<logwriters\\>/$GID/g" "$T/setup.sh" >"$T/setup-gid.sh"
echo "set-up, from $doc:"
cat "$T/setup-gid.sh"
expect 0 sh -e "$T/setup-gid.sh"
expect_empty err

start_tail doc Syslog_L5K2 --facility user
private_instance doc
inst=$(instance_of "$pid_doc")

# Writing: a member's message is an event, a non-member's is not.
member_logs member "from the group"
member_logs --groups '' outsider "from outside the group"
expect 1 member --groups '' dd if=/dev/null of="$TR/user_events_data" conv=notrunc count=0 status=none
expect_line err "dd: failed to open '$TR/user_events_data': Permission denied"

# Reading: the member can open no buffer, root's tail's least of all.
for f in "$inst/per_cpu/cpu0/trace_pipe_raw" "$inst/trace_pipe" "$inst/trace" \
	"$TR/trace" "$TR/trace_pipe" "$TR/per_cpu/cpu0/trace_pipe_raw" "$TR/user_events_status"; do
	cannot_open "$f"
done
expect 2 member ls "$TR/instances"
expect_line err "ls: cannot open directory '$TR/instances': Permission denied"

logs root 1 6 1 "root's secret"
stop_tail doc
mask_text "$T/doc.out" | sed 's/\[[0-9]*\]:/[PID]:/' >"$T/got"
printf '%s\n' "TIME $host member[PID]: user.info from the group" \
	"TIME $host root[PID]: user.info root's secret" >"$T/want"
expect_same "root's tail under the documented set-up" "$T/want" "$T/got"
checks=$((checks + 1))
[ ! -s "$T/doc.err" ] || fail "tail wrote on stderr: $(cat "$T/doc.err")"

# The set-up this page gave before: the group on the tracefs directory
# (search) and on user_events_data (write).  tracefs then gives the group
# every file: the member reads the top-level trace and lists instances/.
if ! chgrp "$GID" "$TR" || ! chmod g+x "$TR"; then
	fail "cannot give the group $TR"
fi
start_tail old Syslog_L5K2 --facility user
private_instance old
inst=$(instance_of "$pid_old")
expect 0 member dd if="$TR/trace" of=/dev/null count=0 status=none
expect 0 member ls "$TR/instances"
expect_line out "${inst##*/}"
# But not the tail's instance.
for f in "$inst/per_cpu/cpu0/trace_pipe_raw" "$inst/trace_pipe" "$inst/trace"; do
	cannot_open "$f"
done
logs root 1 6 1 "root's second secret"
stop_tail old
mask_text "$T/old.out" | sed 's/\[[0-9]*\]:/[PID]:/' >"$T/got"
printf '%s\n' "TIME $host root[PID]: user.info root's second secret" >"$T/want"
expect_same "root's tail with the group on the tracefs directory" "$T/want" "$T/got"

# A tail that cannot make its instance private refuses to trace into it:
# the member, given write on instances/, creates one (root's, as tracefs
# makes it) but may not chown it.  It is removed again, exit 4.
if ! chmod g+w "$TR/instances"; then
	fail "cannot give the group $TR/instances"
fi
expect 4 member --stage "$EHSYSLOG" -- "$EHSYSLOG" tail --facility user --timeout 10
expect_empty out
sed 's/ehsyslog-tail-[0-9]*-[0-9]*-[0-9]* /ehsyslog-tail-PID-START-NS /' "$T/err" >"$T/got"
echo "ehsyslog tail: cannot make tracefs instance ehsyslog-tail-PID-START-NS private (owner uid 65534, mode 0700): Operation not permitted" >"$T/want"
expect_same "a tail whose instance cannot be made private" "$T/want" "$T/got"
no_leftovers "at the end"

finish
