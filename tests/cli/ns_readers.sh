# shellcheck shell=sh disable=SC2086 # TRANSPORT is one word or none
# Readers in other PID namespaces, as in a container: sourced by
# tests/cli/uprobe_ns.sh and kernel_ns.sh after their harness, which
# sets TRANSPORT (tail's and export's option for it, or empty) and
# LAST_EVENT (under an instance's events/: the last event a tail
# --facility daemon enables).  Every reader follows facility daemon;
# kernel_logger logs there (facility 3, severity info).
#
# A tail (and an export) in their own PID and mount namespace, /proc
# their own (unshare -m -p -f --mount-proc), survive host-side cleanups,
# status, tails and exports, and keep printing; the host's tail survives
# the same from a container; a container's tail killed by SIGKILL is
# removed by the next host cleanup, once it can prove it dead.

# start_of PID: field 22 of /proc/PID/stat, after the command name.
start_of() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20
}

# in_container NAME CMD...: CMD in a PID and mount namespace of its own,
# stdout and stderr in $T/NAME.out and .err; sets upid_NAME (unshare's
# pid), cpid_NAME (CMD's, as seen here) and ns_NAME (the inode of CMD's
# PID namespace).
in_container() {
	name=$1
	shift
	unshare -m -p -f --mount-proc "$@" >"$T/$name.out" 2>"$T/$name.err" &
	u=$!
	wait_until 60 pgrep -P "$u" >/dev/null || fail "$name: unshare started nothing: $(cat "$T/$name.err")"
	c=$(pgrep -P "$u")
	eval "upid_$name=$u cpid_$name=$c ns_$name=$(stat -L -c %i "/proc/$c/ns/pid" 2>/dev/null)"
}

# ns_inst NS: the instance of the reader in PID namespace NS; 1 if none.
ns_inst() {
	for inst in "$TR/instances/ehsyslog-tail-"*"-$1"; do
		[ -d "$inst" ] || return 1
		echo "$inst"
	done
}

# pid_inst PID: the instance of the reader PID of this namespace.
pid_inst() {
	for inst in "$TR/instances/ehsyslog-tail-$1-"*; do
		[ -d "$inst" ] || return 1
		echo "$inst"
	done
}

# ready INST: the reader of INST has enabled all its events.
ready() {
	[ -n "$1" ] && [ "$(cat "$1/events/$LAST_EVENT/enable")" = 1 ]
}
ready_ns() {
	ready "$(ns_inst "$1")"
}
ready_pid() {
	ready "$(pid_inst "$1")"
}

# seen NAME MESSAGE: the JSON reader NAME printed MESSAGE.
seen() {
	grep -q "\"message\":\"$2\"" "$T/$1.out"
}

# log_seen MESSAGE NAME...: logs MESSAGE; each reader NAME prints it.
log_seen() {
	msg=$1
	shift
	logs nsreaders 3 6 1 "$msg"
	for r in "$@"; do
		checks=$((checks + 1))
		wait_until 60 seen "$r" "$msg" || fail "reader $r did not print '$msg': $(cat "$T/$r.err")"
	done
}

# kept INST LABEL: the instance is still there.
kept() {
	checks=$((checks + 1))
	[ -d "$1" ] || fail "$2: $1 was removed"
}

# no_mention FILE INST LABEL: FILE does not name the instance.
no_mention() {
	checks=$((checks + 1))
	! grep -F "${2##*/}" "$T/$1" || fail "$3: $1 names ${2##*/}: $(cat "$T/$1")"
}

# alive PID LABEL
alive() {
	checks=$((checks + 1))
	kill -0 "$1" 2>/dev/null || fail "$2: process $1 is gone: $3"
}

# Nothing listens there: export holds what it reads.
EXPORT_TO=http://127.0.0.1:9

# 1. A tail in a container: its instance carries its namespace's pid, 1,
# its start time and the namespace.
in_container ct "$EHSYSLOG" tail $TRANSPORT --facility daemon --json
wait_until 60 ready_ns "$ns_ct" || fail "the container's tail enabled nothing: $(cat "$T/ct.err")"
ct_inst=$(ns_inst "$ns_ct")
checks=$((checks + 1))
[ "${ct_inst##*/}" = "ehsyslog-tail-1-$(start_of "$cpid_ct")-$ns_ct" ] ||
	fail "the container's instance is ${ct_inst##*/}"
log_seen "in a container" ct

# 2. On the host: cleanup, status, a tail, an export.  None takes the
# container's tail for gone.
expect 0 "$EHSYSLOG" cleanup
no_mention out "$ct_inst" "host cleanup"
expect 0 "$EHSYSLOG" status
checks=$((checks + 1))
! grep "^stale: .*${ct_inst##*/}" "$T/out" || fail "host status calls the container's instance stale"
"$EHSYSLOG" tail $TRANSPORT --facility daemon --json >"$T/ht.out" 2>"$T/ht.err" &
ht=$!
wait_until 60 ready_pid $ht || fail "the host's tail enabled nothing: $(cat "$T/ht.err")"
ht_inst=$(pid_inst $ht)
no_mention ht.err "$ct_inst" "host tail"
"$EHSYSLOG" export $TRANSPORT --facility daemon --endpoint $EXPORT_TO >"$T/hx.out" 2>"$T/hx.err" &
hx=$!
wait_until 60 ready_pid $hx || fail "the host's export enabled nothing: $(cat "$T/hx.err")"
kill -TERM $hx
wait $hx
no_mention hx.err "$ct_inst" "host export"
kept "$ct_inst" "host readers"
alive "$cpid_ct" "host readers" "$(cat "$T/ct.err")"
log_seen "after the host's readers" ct ht

# 3. In containers: a cleanup, a tail, an export.  None takes the host's
# tail for gone, nor the first container's.
unshare -m -p -f --mount-proc "$EHSYSLOG" cleanup >"$T/cc.out" 2>"$T/cc.err" ||
	fail "cleanup in a container exited $?: $(cat "$T/cc.err")"
no_mention cc.out "$ht_inst" "container cleanup"
no_mention cc.out "$ct_inst" "other container's cleanup"
in_container c2 "$EHSYSLOG" tail $TRANSPORT --facility daemon --json
wait_until 60 ready_ns "$ns_c2" || fail "the second container's tail enabled nothing: $(cat "$T/c2.err")"
no_mention c2.err "$ht_inst" "container tail"
no_mention c2.err "$ct_inst" "other container's tail"
in_container cx "$EHSYSLOG" export $TRANSPORT --facility daemon --endpoint $EXPORT_TO
wait_until 60 ready_ns "$ns_cx" || fail "the container's export enabled nothing: $(cat "$T/cx.err")"
# Its counters, as the host's status sees them: running.
wait_until 60 test -e "$T/run/export-1.state" || fail "the container's export published no counters"
expect 0 "$EHSYSLOG" status
expect_text out "export:        running, pid 1, to $EXPORT_TO"
expect 0 "$EHSYSLOG" cleanup
no_mention out export-1.state "host cleanup, the container's export running"
kill -TERM "$cpid_cx"
wait "$upid_cx"
no_mention cx.err "$ht_inst" "container export"
no_mention cx.err "$ct_inst" "other container's export"
kept "$ht_inst" "container readers"
kept "$ct_inst" "other container's readers"
log_seen "after the containers' readers" ct ht c2
kill -INT "$cpid_c2"
wait "$upid_c2" || fail "the second container's tail exited $?: $(cat "$T/c2.err")"

# 4. The container's tail killed: a host cleanup removes its instance
# once it can prove it gone: the lock is free, and the instance is older
# than the moment a reader takes its lock (5 s).  Instances are the
# kernel's, seen from every mount namespace: on the host's kernel, a
# tail or export that another suite starts alongside may remove it first
# (their start runs the same cleanup).  Then ours finds nothing, and
# says so.
kill -KILL "$cpid_ct"
wait "$upid_ct" 2>/dev/null
made=$(stat -c %Z "$ct_inst" 2>/dev/null) || made=0
while [ $(($(date +%s) - made)) -lt 6 ]; do
	sleep 1
done
expect 0 "$EHSYSLOG" cleanup
checks=$((checks + 1))
removed="removed stale instance ${ct_inst##*/} (its tail is gone)"
if grep -qxF "$removed" "$T/out"; then
	:
elif [ ! -e "$ct_inst" ] && grep -qx "no stale instances: nothing to remove" "$T/out"; then
	echo "note: another reader on this kernel removed ${ct_inst##*/} before our cleanup"
else
	fail "out lacks the line '$removed'; it was: $(cat "$T/out")"
fi
checks=$((checks + 1))
[ ! -e "$ct_inst" ] || fail "cleanup left $ct_inst"
kept "$ht_inst" "the dead one's cleanup"
log_seen "after the dead one" ht
kill -INT $ht
wait $ht || fail "the host's tail exited $?: $(cat "$T/ht.err")"
