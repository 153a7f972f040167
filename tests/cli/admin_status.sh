#!/bin/sh
# ehsyslog register and status without a usable user_events: exit 3 with
# the reason on this host; and status against a fake tracefs
# (EHSYSLOG_TRACEFS) whose user_events_status lists tracepoints, and
# whose instances hold some that tails left behind (status, cleanup).
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"

# Only the EHSYSLOG_* variables set here: status lists others as ignored.
for v in $(env | sed -n 's/^\(EHSYSLOG_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
export EHSYSLOG_CONFIG="$T/absent.conf" EHSYSLOG_LD_SO_PRELOAD="$T/ld.so.preload" EHSYSLOG_SYSTEMD_DIR="$T/system"
export EHSYSLOG_LIBRARY=/usr/lib/libehsyslog-test.so

# Argument errors come before any kernel access.
expect 2 "$EHSYSLOG" register --provider 'bad name'
expect_text err "ehsyslog register: invalid provider name 'bad name': "
expect 2 "$EHSYSLOG" register --level 0
expect_line err "ehsyslog register: invalid level '0' (1..5 or a severity name)"
expect 2 "$EHSYSLOG" register --level 4,nope
expect_line err "ehsyslog register: invalid level 'nope' (1..5 or a severity name)"
expect 2 "$EHSYSLOG" register --provider x-y
expect_line err "ehsyslog register: invalid provider name 'x-y': must be 1-200 characters of A-Z a-z 0-9 _"
expect 2 "$EHSYSLOG" register --facility 128
expect_line err "ehsyslog register: invalid facility '128' (a name such as user or local0, or 0..127)"
expect 2 "$EHSYSLOG" register --facility ,
expect_line err "ehsyslog register: empty facility list"

if [ -e /sys/kernel/tracing/user_events_data ]; then
	echo "this host has user_events: its exit-3 checks are skipped"
else
	expect 3 "$EHSYSLOG" register --facility user --level err
	expect_empty out
	expect_text err "ehsyslog register: "
	grep -q "this kernel has no user_events\|this kernel has no tracing" "$T/err" || fail "register: $(cat "$T/err")"
	expect 3 "$EHSYSLOG" register --persist
	# Without user_events, status fails only where uprobe events are
	# missing too: with them, the library's events go to its probes.
	if [ -e /sys/kernel/tracing/uprobe_events ]; then
		expect 0 "$EHSYSLOG" status
		expect_empty err
		expect_text out "transport:     uprobes: "
	else
		expect 3 "$EHSYSLOG" status
		grep -q "^ehsyslog status: .*this kernel has no" "$T/err" || fail "status: $(cat "$T/err")"
	fi
	expect_line out "preload:       disabled: /usr/lib/libehsyslog-test.so is not listed in $T/ld.so.preload"
fi

# A tracefs without user_events.
mkdir "$T/tracefs"
export EHSYSLOG_TRACEFS="$T/tracefs"
# Exports' counters (none until the test makes some), not the machine's.
export EHSYSLOG_RUNTIME_DIR="$T/run"
expect 3 "$EHSYSLOG" status
expect_line err "ehsyslog status: $T/tracefs/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS)"
expect_line out "user_events:   unavailable: $T/tracefs/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS)"
# Replace mode where no event can be written: the calls pass through.
printf 'passthrough = no\n' >"$T/replace.conf"
expect 3 env EHSYSLOG_CONFIG="$T/replace.conf" "$EHSYSLOG" status
expect_line out "  passthrough  no (replace mode), but no event can be written here by this user: the calls pass through"

# One with it: the status file as Linux 6.12 prints it.
: >"$T/tracefs/user_events_data"
chmod 640 "$T/tracefs/user_events_data"
chmod 755 "$T" "$T/tracefs"
cat >"$T/tracefs/user_events_status" <<'STATUS'
Syslog_L4K2 # Used by perf
Syslog_L2K8
Other_L4K2 # Used by ftrace
Syslog_L5K3 # Used by ftrace perf
Syslog_L4K0
not_an_eventheader_name

Active: 5
Busy: 3
STATUS
expect 0 "$EHSYSLOG" status
expect_empty err
expect_line out "user_events:   available: $T/tracefs/user_events_data is writable by this user"
expect_line out "preload units: none (no NAME.service.d/ehsyslog.conf in $T/system)"
expect_line out "tracepoints:   provider Syslog"
expect_line out "  Syslog_L4K2              level 4, keyword 0x2 (facility user)  enabled by perf"
expect_line out "  Syslog_L2K8              level 2, keyword 0x8 (facility daemon)  not enabled"
expect_line out "  Syslog_L5K3              level 5, keyword 0x3 (not one named facility)  enabled by ftrace perf"
expect_line out "  Syslog_L4K0              level 4, keyword 0x0 (facilities 24..127)  not enabled"
expect_line out "  Active: 5"
expect_line out "configuration: $T/absent.conf absent: defaults apply"
expect_line out "  provider     Syslog"
expect_line out "  passthrough  yes"
expect_line out "  disabled     no"
expect_line out "  syslog ports 514 601"
expect_line out "  remote       no (syslog ports at loopback only)"
expect_line out "  stdio        none (journal streams only)"
expect 0 env EHSYSLOG_CONFIG="$T/replace.conf" "$EHSYSLOG" status
expect_line out "  passthrough  no (replace mode)"
expect 0 env EHSYSLOG_CONFIG="$T/replace.conf" EHSYSLOG_DISABLE=1 "$EHSYSLOG" status
expect_line out "  passthrough  no (replace mode), but events are off: the calls pass through"
grep -q "Other_L4K2\|not_an_eventheader" "$T/out" && fail "status shows tracepoints of other providers"
checks=$((checks + 1))
grep -q "^  ignored " "$T/out" && fail "status reports ignored settings where there are none: $(cat "$T/out")"

# The environment's provider selects the tracepoints shown.
expect 0 env EHSYSLOG_PROVIDER=Other EHSYSLOG_PASSTHROUGH=0 "$EHSYSLOG" status
expect_line out "tracepoints:   provider Other"
expect_line out "  Other_L4K2               level 4, keyword 0x2 (facility user)  enabled by ftrace"
expect_line out "  passthrough  no (replace mode)"
# Each setting's variable applies too.
expect 0 env EHSYSLOG_SYSLOG_PORTS=' 6514 , 10514' EHSYSLOG_REMOTE_SYSLOG=on EHSYSLOG_STDIO=stderr \
	"$EHSYSLOG" status
expect_line out "  syslog ports 6514 10514"
expect_line out "  remote       yes (syslog ports at any address)"
expect_line out "  stdio        stderr"
checks=$((checks + 1))
grep -q "^  ignored " "$T/out" && fail "status ignores a valid setting: $(cat "$T/out")"

# What the library would ignore is listed, with why; the rest applies.
expect 0 env EHSYSLOG_PROVIDER=x-y EHSYSLOG_PASSTHROUGH=maybe EHSYSLOG_DISABLE=yes \
	EHSYSLOG_SYSLOG_PORTS=0,514 EHSYSLOG_REMOTE_SYSLOG=maybe EHSYSLOG_STDIO=stdin \
	EHSYSLOG_PROVDER=Typo "$EHSYSLOG" status
expect_empty err
expect_line out "  provider     Syslog"
expect_line out "  passthrough  yes"
expect_line out "  disabled     yes"
expect_line out "  syslog ports 514 601"
expect_line out "  remote       no (syslog ports at loopback only)"
expect_line out "  ignored      EHSYSLOG_PROVIDER=x-y: provider must be 1-200 characters of A-Z a-z 0-9 _"
expect_line out "  ignored      EHSYSLOG_PASSTHROUGH=maybe: value must be yes, no, on, off, true, false, 1 or 0"
expect_line out "  ignored      EHSYSLOG_SYSLOG_PORTS=0,514: syslog_ports must be 1 to 8 ports 1-65535, separated by spaces or commas"
expect_line out "  ignored      EHSYSLOG_REMOTE_SYSLOG=maybe: value must be yes, no, on, off, true, false, 1 or 0"
expect_line out "  ignored      EHSYSLOG_STDIO=stdin: stdio must be stdout, stderr, both or none, or several separated by commas"
expect_line out "  ignored      EHSYSLOG_PROVDER: not a variable the library reads"
checks=$((checks + 1))
[ "$(grep -c "^  ignored " "$T/out")" = 6 ] || fail "status lists other ignored settings: $(cat "$T/out")"
# Bytes a terminal would act on are escaped.
expect 0 env "$(printf 'EHSYSLOG_PROVIDER=a\033b')" "$EHSYSLOG" status
expect_line out "  ignored      EHSYSLOG_PROVIDER=a\\033b: provider must be 1-200 characters of A-Z a-z 0-9 _"
# The library reads the default file when EHSYSLOG_CONFIG is empty.
expect 0 env EHSYSLOG_CONFIG= "$EHSYSLOG" status
expect_line out "  ignored      EHSYSLOG_CONFIG=: empty, so the default file applies"
# A file others may write, or not root's: the library ignores it.
printf 'provider = Mine\n' >"$T/open.conf"
chmod 666 "$T/open.conf"
expect 0 env EHSYSLOG_CONFIG="$T/open.conf" "$EHSYSLOG" status
if [ "$(id -u)" = 0 ]; then
	expect_line out "configuration: $T/open.conf writable by group or others: ignored, defaults apply"
	chmod 644 "$T/open.conf"
	chown nobody "$T/open.conf"
	expect 0 env EHSYSLOG_CONFIG="$T/open.conf" "$EHSYSLOG" status
fi
expect_line out "configuration: $T/open.conf not owned by root: ignored, defaults apply"
expect_line out "  provider     Syslog"
# A malformed file: ignored as a whole, each error named.
printf 'provider = Mine\nprovider = x-y\n# fine\npassthrough = maybe\nsyslog_ports = 1 2 3 4 5 6 7 8 9\n' >"$T/bad.conf"
expect 0 env EHSYSLOG_CONFIG="$T/bad.conf" "$EHSYSLOG" status
expect_line out "configuration: $T/bad.conf has 3 errors (see ehsyslog config check): ignored, defaults apply"
expect_line out "  provider     Syslog"
expect_line out "  ignored      $T/bad.conf:2: provider must be 1-200 characters of A-Z a-z 0-9 _"
expect_line out "  ignored      $T/bad.conf:4: value must be yes, no, on, off, true, false, 1 or 0"
expect_line out "  ignored      $T/bad.conf:5: syslog_ports must be 1 to 8 ports 1-65535, separated by spaces or commas"
# A program's section applies on top of the global keys.
printf 'syslog_ports = 6514\nstdio = stdout\n[program rsyslogd]\nsyslog_ports = 10514,514\nremote_syslog = yes\nstdio = both\n[program quiet]\nstdio = none\n' >"$T/ports.conf"
expect 0 env EHSYSLOG_CONFIG="$T/ports.conf" "$EHSYSLOG" status
expect_line out "  syslog ports 6514"
expect_line out "  remote       no (syslog ports at loopback only)"
expect_line out "  stdio        stdout"
expect 0 env EHSYSLOG_CONFIG="$T/ports.conf" "$EHSYSLOG" status --program rsyslogd
expect_line out "  syslog ports 10514 514"
expect_line out "  remote       yes (syslog ports at any address)"
expect_line out "  stdio        stdout, stderr"
expect 0 env EHSYSLOG_CONFIG="$T/ports.conf" "$EHSYSLOG" status --program quiet
expect_line out "  stdio        none (journal streams only)"

# A user who may not write user_events_data: exit 4, file and permission named.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	expect 4 as_nobody "$EHSYSLOG" status
	expect_line err "ehsyslog status: cannot open $T/tracefs/user_events_data for writing: Permission denied (needs root or write permission on it, plus search permission on $T/tracefs)"
fi

# A user who may not search this machine's tracefs (mode 0700, freshly
# mounted in a namespace of the test's) cannot see whether user_events_data
# exists: status and tail must not send them to fix permissions on a
# kernel without user_events, but say what the kernel's configuration
# tells: uprobe events, which only root reads (exit 4); neither (exit 3);
# or that they cannot tell (exit 4).
if without_user_events "status and tail as nobody on this machine's tracefs"; then
	kconfig=
	for f in /proc/config.gz "/boot/config-$(uname -r)"; do
		if [ -r "$f" ]; then
			kconfig=$f
			break
		fi
	done
	if [ -z "$kconfig" ]; then
		kernel=unknown
	elif zcat -f "$kconfig" | grep -q '^CONFIG_UPROBE_EVENTS=[ym]'; then
		kernel=uprobes
	else
		kernel=neither
	fi
	release=$(uname -r)
	case $release in
	[0-5].* | 6.[0-3] | 6.[0-3].* | 6.[0-3]-*) no_ue="this kernel has no user_events (Linux $release is older than 6.4" ;;
	*) no_ue="this kernel has no user_events ($kconfig: CONFIG_USER_EVENTS is not set" ;;
	esac
	for cmd in status tail; do
		checks=$((checks + 1))
		more=
		[ $cmd = status ] || more="--timeout 1"
		# shellcheck disable=SC2086 # $more: words or none
		run_cmd env -u EHSYSLOG_TRACEFS "$ns" fresh -- "$top_srcdir/tests/as-nobody" --stage "$EHSYSLOG" -- "$EHSYSLOG" $cmd $more
		case $kernel-$rc in
		uprobes-4)
			grep -qxF "ehsyslog $cmd: $no_ue) but uprobe events ($kconfig: CONFIG_UPROBE_EVENTS is set), which this user cannot read: /sys/kernel/tracing: Permission denied (reading events needs root)" "$T/err" ||
				fail "$cmd as nobody, exit 4: $(cat "$T/err")"
			[ $cmd = tail ] || grep -qxF "user_events:   unavailable: $no_ue)" "$T/out" ||
				fail "$cmd as nobody, exit 4: $(head -n 1 "$T/out")"
			;;
		neither-3)
			grep -qF "ehsyslog $cmd: $no_ue; needs" "$T/err" ||
				fail "$cmd as nobody, exit 3: $(cat "$T/err")"
			;;
		unknown-4)
			[ $cmd = tail ] ||
				grep -q "^user_events:   unusable: /sys/kernel/tracing/user_events_data: Permission denied; whether this kernel has user_events cannot be told by this user (no readable kernel configuration: .*; root can tell: sudo ehsyslog status)\$" "$T/out" ||
				fail "$cmd as nobody, exit 4: $(head -n 1 "$T/out")"
			;;
		*) fail "$cmd as nobody on a kernel with $kernel exited $rc: $(cat "$T/err")" ;;
		esac
	done
fi

# Instances left by tails that are gone: status lists them, cleanup
# removes them (empty directories here; tests/cli/kernel_stale.sh has
# the real ones).  No process has a pid above 4194304 (PID_MAX_LIMIT);
# this shell ($$) is alive, but did not start at tick 1.  Names with
# this PID namespace ($pidns) are judged by pid, but a held lock
# (flock(1) here) keeps one alive whatever its pid; names with another
# namespace (1, 2) are young here, so kept, lock or no lock.  Older names
# (no namespace) are judged by pid here, in the initial namespace.
expect 0 "$EHSYSLOG" cleanup
expect_line out "no stale instances: nothing to remove"
start=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
pidns=$(stat -L -c %i /proc/self/ns/pid)
stale_names="ehsyslog-tail-4194305-1 ehsyslog-tail-4194306 ehsyslog-tail-$$-1 \
	ehsyslog-tail-4194305-1-$pidns ehsyslog-tail-$$-1-$pidns"
kept_names="ehsyslog-tail-$$-$start ehsyslog-tail-$$ ehsyslog-tail-01 ehsyslog-tail-x other \
	ehsyslog-tail-$$-$start-$pidns ehsyslog-tail-4194307-1-$pidns ehsyslog-tail-4194305-1-1 \
	ehsyslog-tail-4194305-1-2 ehsyslog-tail-4194305-1-0 ehsyslog-tail-1-2-3-4"
for n in $stale_names $kept_names; do
	mkdir -p "$T/tracefs/instances/$n"
done
# lock DIR: a process (pid in $!) holding DIR's lock until killed.
lock() {
	sh -c 'exec 9<"$0" && flock 9 && exec sleep 600' "$1" &
}
lock "$T/tracefs/instances/ehsyslog-tail-4194307-1-$pidns"
locker1=$!
lock "$T/tracefs/instances/ehsyslog-tail-4194305-1-2"
locker2=$!
wait_until 60 sh -c '! flock -n "$0" true' "$T/tracefs/instances/ehsyslog-tail-4194307-1-$pidns" ||
	fail "flock took no lock"
wait_until 60 sh -c '! flock -n "$0" true' "$T/tracefs/instances/ehsyslog-tail-4194305-1-2" ||
	fail "flock took no lock"
expect 0 "$EHSYSLOG" status
for n in $stale_names; do
	expect_line out "stale:         $T/tracefs/instances/$n, left by a tail that is gone: remove it with 'ehsyslog cleanup'"
done
checks=$((checks + 1))
[ "$(grep -c '^stale:' "$T/out")" = 5 ] || fail "status lists other stale instances: $(grep '^stale:' "$T/out")"
expect 0 "$EHSYSLOG" cleanup
expect_empty err
sort "$T/out" >"$T/got"
printf 'removed stale instance %s (its tail is gone)\n' $stale_names | sort >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "cleanup printed: $(cat "$T/got")"
find "$T/tracefs/instances" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort >"$T/got"
printf '%s\n' $kept_names | sort >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "left after cleanup: $(cat "$T/got")"
# The lock released: its pid (gone) decides.
kill $locker1 $locker2
wait $locker1 $locker2 2>/dev/null
expect 0 "$EHSYSLOG" cleanup
expect_line out "removed stale instance ehsyslog-tail-4194307-1-$pidns (its tail is gone)"
expect 0 "$EHSYSLOG" cleanup
expect_line out "no stale instances: nothing to remove"

# Export's counters, as running exports publish them (cli/export/state.h):
# none yet; one running (this shell, with its start time), one stale (a
# pid that cannot exist), one not in the format; a temporary file skipped.
expect 0 "$EHSYSLOG" status
expect_line out "export:        not running (no export-PID.state in $T/run)"
mkdir "$T/run"
state() { # PID START COLLECTOR ERROR
	printf 'ehsyslog-export-state 1\npid %s\nstart %s\nsent 7\ndropped 2\nunsent 3\nlost 1\ncollector %s\nendpoint http://c:4318/v1/logs\nerror %s\n' "$@"
}
state $$ "$start" failing "Timeout was reached" >"$T/run/export-$$.state"
state 4194305 1 ok "" >"$T/run/export-4194305.state"
printf 'ehsyslog-export-state 1\npid x\n' >"$T/run/export-5.state"
: >"$T/run/export-6.state.tmp"
expect 0 "$EHSYSLOG" status
expect_empty err
export_blocks "$T/out" >"$T/got"
{
	echo "export:        $T/run/export-5.state: not used: bad value for pid"
	echo "export:        running, pid $$, to http://c:4318/v1/logs"
	echo "  collector    failing (retrying)"
	echo "  records      7 sent, 2 dropped (queue full or refused), 3 unsent"
	echo "  lost         1 event by the trace buffer"
	echo "  last error   Timeout was reached"
	echo "export:        stale: $T/run/export-4194305.state: its pid 4194305 is gone (killed?; 'ehsyslog cleanup' removes it); it last said: to http://c:4318/v1/logs"
	echo "  collector    ok (takes records)"
	echo "  records      7 sent, 2 dropped (queue full or refused), 3 unsent"
	echo "  lost         1 event by the trace buffer"
} >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "status on exports: $(diff "$T/want" "$T/got")"
# cleanup removes the stale one only.
expect 0 "$EHSYSLOG" cleanup
expect_empty err
printf '%s\n' "no stale instances: nothing to remove" \
	"removed stale $T/run/export-4194305.state (its export, pid 4194305, is gone)" >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/out" || fail "cleanup of export counters: $(cat "$T/out")"
find "$T/run" -mindepth 1 -printf '%f\n' | sort >"$T/got"
printf '%s\n' "export-$$.state" export-5.state export-6.state.tmp | sort >"$T/want"
checks=$((checks + 1))
cmp -s "$T/want" "$T/got" || fail "left after cleanup in run: $(cat "$T/got")"

# A tracefs without user_events: 3, as the other commands.
rm "$T/tracefs/user_events_data"
expect 3 "$EHSYSLOG" cleanup
expect_line err "ehsyslog cleanup: $T/tracefs/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS)"

finish
