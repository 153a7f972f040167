# shellcheck shell=sh
# Shared by the tests/cli/kernel_*.sh tests: sourced, not run.  Adds to
# admin_lib.sh what the tool's kernel tests need: running the test script
# itself in a user_events kernel, waiting on tracefs, logging programs.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"
. "${top_srcdir:-.}/tests/lib/perf_path.sh"
. "${top_srcdir:-.}/tests/lib/kernel_logger.sh"

TR=/sys/kernel/tracing
export EHSYSLOG_LIBRARY="$BUILT_LIBRARY" EHSYSLOG_CONFIG="$T/absent.conf"
unset EHSYSLOG_PROVIDER EHSYSLOG_PASSTHROUGH EHSYSLOG_DISABLE EHSYSLOG_TRACEFS LD_PRELOAD

# in_kernel SCRIPT [ARG]...: unless SCRIPT runs with --inside already,
# runs "SCRIPT --inside" once where user_events work (natively, or in one
# boot of the QEMU guest) and exits with its status, or 1 if checks made
# before (on the host) failed.  Inside, returns.  $KERNEL_SCRATCH, if
# set, is a directory the host part made for the guest, writable there
# (the guest shares it over 9p): removed after.
in_kernel() {
	script=$1
	shift
	[ "${1:-}" = --inside ] && return 0
	[ -x "$LOGGER" ] || skip "$LOGGER not built"
	[ -f "$BUILT_LIBRARY" ] || skip "$BUILT_LIBRARY not built"
	krc=0
	"$top_srcdir/scripts/kernel-test" ${KERNEL_SCRATCH:+--outdir "$KERNEL_SCRATCH"} \
		"$script" --inside || krc=$?
	[ -z "${KERNEL_SCRATCH:-}" ] || rm -rf "$KERNEL_SCRATCH"
	[ "$failures" -eq 0 ] || krc=1
	echo "host: $checks checks, $failures failures"
	exit $krc
}

# find_perf: the real perf in $PERF (tests/lib/perf_path.sh).
find_perf() {
	PERF=$(perf_path) || PERF=
	[ -n "$PERF" ] || fail "no working perf binary"
	echo "perf: $PERF ($("$PERF" version))"
}

# instance_of PID: prints the tracefs instance of the tail PID
# (ehsyslog-tail-PID-START-NS); 1 if it has none.
instance_of() {
	for inst in "$TR/instances/ehsyslog-tail-$1-"*; do
		[ -d "$inst" ] || return 1
		echo "$inst"
		return 0
	done
}

# enabled_in PID EVENT: the tail PID has enabled EVENT in its instance;
# on a kernel without user_events (Debian's own, tests/kernel/
# stock_guest.sh), the uprobe event of EVENT's level (PROVIDER_L<n>K...)
# in the library's group.
enabled_in() {
	inst=$(instance_of "$1") || return 1
	if [ -e "$TR/user_events_data" ]; then
		[ "$(cat "$inst/events/user_events/$2/enable")" = 1 ]
	else
		level=${2##*_L}
		set -- critical error warning info verbose
		shift $((${level%%K*} - 1))
		[ "$(cat "$inst/events/ehsyslog/$1/enable" 2>/dev/null)" = 1 ]
	fi
}

# start_tail NAME EVENT ARG...: "ehsyslog tail ARG..." in the background,
# stdout in $T/NAME.out, stderr in $T/NAME.err, its pid in $pid_NAME;
# returns once EVENT (the last one it enables) is enabled.
start_tail() {
	name=$1 event=$2
	shift 2
	"$EHSYSLOG" tail "$@" >"$T/$name.out" 2>"$T/$name.err" &
	eval "pid_$name=$!"
	wait_until 60 enabled_in $! "$event" || fail "tail $name ($*) did not enable $event: $(cat "$T/$name.err")"
}

# stop_tail NAME [SIGNAL]: sends SIGNAL (INT) and checks tail exits 0.
stop_tail() {
	p=
	eval "p=\$pid_$1"
	kill -"${2:-INT}" "$p"
	src=0
	wait "$p" || src=$?
	checks=$((checks + 1))
	[ "$src" = 0 ] || fail "tail $1 exited $src after SIG${2:-INT}: $(cat "$T/$1.err")"
}

# Text lines with their time (RFC 3339, microseconds) replaced by TIME;
# JSON with the time and the cpu replaced.
mask_text() {
	sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}([+-][0-9]{2}:[0-9]{2}|Z) /TIME /' "$1"
}
mask_json() {
	sed -E 's/"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}Z"/"time":"TIME"/; s/"cpu":[0-9]+/"cpu":N/' "$1"
}

# no_leftovers LABEL: no tracefs instance and no tracepoint of the
# providers Syslog and Other are left; on a kernel without user_events,
# no uprobe event of the library's group.
no_leftovers() {
	# A logger still held (kernel_logger.sh) keeps its tracepoints.
	release_loggers
	checks=$((checks + 1))
	left=$(ls -A "$TR/instances")
	[ -z "$left" ] || fail "$1: instances left: $left"
	checks=$((checks + 1))
	if [ -e "$TR/user_events_status" ]; then
		left=$(grep -E '^(Syslog|Other)_' "$TR/user_events_status")
	else
		left=$(grep '^p:ehsyslog/' "$TR/uprobe_events")
	fi
	[ -z "$left" ] || fail "$1: tracepoints left: $left"
}
