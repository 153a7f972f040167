# Shared by the tests/cli/admin_*.sh tests: sourced, not run.
# Each check prints what it expected on failure; the test exits 1 at the
# end if any failed.
set -u
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$top_builddir}"
EHSYSLOG=$top_builddir/ehsyslog
BUILT_LIBRARY=$top_builddir/.libs/libehsyslog.so
failures=0
checks=0
T=$(mktemp -d "${TMPDIR:-/tmp}/ehsyslog-test.XXXXXX")
S=''
trap 'rm -rf "$T" ${S:+"$S"}' EXIT
. "$top_srcdir/tests/lib/sanitizers.sh"

# as_nobody CMD...: CMD as the user nobody, with a copy of the tool that
# nobody can run wherever the build tree lies (tests/as-nobody).
as_nobody() {
	"$top_srcdir/tests/as-nobody" --stage "$EHSYSLOG" -- "$@"
}

# root_writes_only PATH: PATH and every directory above it are owned by
# root and not writable by group or others, as preload enable demands of
# a library's directories.
root_writes_only() {
	p=$1
	while :; do
		[ -n "$(find "$p" -maxdepth 0 -user 0 ! -perm /022)" ] || return 1
		[ "$p" = / ] && return 0
		p=$(dirname "$p")
	done
}

# root_dir: sets S to a fresh directory in /run (mode 755, removed at
# exit) where preload enable accepts a library: $T is below a directory
# others may write (/tmp), sticky bit or not.  Skips without one.
root_dir() {
	[ "$(id -u)" = 0 ] || skip "needs root: the library must be in root's directories"
	root_writes_only /run || skip "/run or a directory above it is not root's alone: no place for a library preload enable accepts"
	S=$(mktemp -d /run/ehsyslog-test.XXXXXX) || skip "cannot create a directory in /run"
	chmod 755 "$S"
}

# safe_library: sets lib to a copy of the built library that the preload
# checks accept (root-owned, mode 644, in root_dir's $S); skips without
# one.  $T is opened to 755 too, for the checks made as nobody.
safe_library() {
	[ -f "$BUILT_LIBRARY" ] || skip "$BUILT_LIBRARY not built"
	root_dir
	chmod 755 "$T"
	lib=$S/libehsyslog.so
	cp "$BUILT_LIBRARY" "$lib"
	chmod 644 "$lib"
}

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# run_cmd CMD...: runs it, keeping stdout in $T/out, stderr in $T/err and
# the exit status in $rc.
run_cmd() {
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
}

# expect RC CMD...: runs CMD and checks its exit status.
expect() {
	want=$1
	shift
	checks=$((checks + 1))
	run_cmd "$@"
	if [ "$rc" != "$want" ]; then
		fail "$* exited $rc, expected $want; stderr: $(cat "$T/err")"
		return 1
	fi
	return 0
}

# export_blocks FILE: the lines of status (its output in FILE) about
# exports: each "export:" line and the indented ones under it.
export_blocks() {
	awk '/^export:/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' "$1"
}

# expect_line FILE TEXT: FILE (out or err) has a line exactly TEXT.
expect_line() {
	checks=$((checks + 1))
	grep -qxF -- "$2" "$T/$1" || fail "$1 lacks the line '$2'; it was: $(cat "$T/$1")"
}

# expect_text FILE TEXT: FILE (out or err) contains TEXT.
expect_text() {
	checks=$((checks + 1))
	grep -qF -- "$2" "$T/$1" || fail "$1 lacks '$2'; it was: $(cat "$T/$1")"
}

expect_empty() {
	checks=$((checks + 1))
	[ ! -s "$T/$1" ] || fail "$1 is not empty: $(cat "$T/$1")"
}

# without_user_events WHAT: true where a tracefs freshly mounted in a
# namespace of the test's (scripts/tracefs-ns, as $ns) shows this kernel
# without user_events; else says why WHAT is not checked.
without_user_events() {
	ns=$top_srcdir/scripts/tracefs-ns
	if ! "$ns" --check 2>/dev/null; then
		echo "SKIP (sub-check): needs root and a mount namespace: $1"
	elif "$ns" fresh -- test -e /sys/kernel/tracing/user_events_data; then
		echo "SKIP (sub-check): this kernel has user_events: $1"
	else
		return 0
	fi
	return 1
}

# wait_until SECONDS CMD...: runs CMD every 0.1 s until it succeeds; 1 if
# it never did.
wait_until() {
	tries=$(($1 * 10))
	shift
	while ! "$@" 2>/dev/null; do
		tries=$((tries - 1))
		[ $tries -gt 0 ] || return 1
		sleep 0.1
	done
}


# expect_no_user_events CMD THEN: what run and preload enable say on this
# machine's tracefs (in a namespace of the test's) without user_events:
# where it has uprobe events, one line saying the events go to the
# library's probes; else the warning that none can be written, and THEN.
expect_no_user_events() {
	if "$ns" fresh -- test -e /sys/kernel/tracing/uprobe_events; then
		expect_line err "ehsyslog $1: this kernel has no user_events: the library's events go to its USDT probes, which 'ehsyslog tail' reads through uprobe events"
	else
		expect_line err "ehsyslog $1: warning: no event can be written here: /sys/kernel/tracing/user_events_data does not exist: this kernel has no user_events (needs Linux 6.4 or later built with CONFIG_USER_EVENTS); $2"
	fi
}

# expect_same LABEL WANT GOT: two files, byte for byte.
expect_same() {
	checks=$((checks + 1))
	cmp -s "$2" "$3" || fail "$1: expected
$(cat "$2")
--- got
$(cat "$3")"
}

# stage_plugin PLUGIN: the plugin where each tool finds it, and only
# there: $T/plugins for trace-cmd (TRACEEVENT_PLUGIN_DIR, with HOME
# $T/empty so that no other copy is loaded from outside the system
# directory), $T/home's for perf (HOME).  TOOL_ENV: in a sanitizer
# build, the words that preload the runtimes into trace-cmd and perf,
# which are not built with them, their own leaks ignored.
stage_plugin() {
	mkdir -p "$T/plugins" "$T/home/.local/lib/traceevent/plugins" "$T/empty"
	cp "$1" "$T/plugins/"
	cp "$1" "$T/home/.local/lib/traceevent/plugins/"
	TOOL_ENV=
	if [ "${sanitizers:-no}" = yes ]; then
		rt=$(sanitizer_runtimes "$1")
		TOOL_ENV="LD_PRELOAD=${rt%:} ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0"
	fi
}

finish() {
	# Loggers kernel_logger.sh's logs holds, if any are left.
	[ -z "${held_loggers:-}" ] || release_loggers
	echo "$checks checks, $failures failures"
	[ "$failures" -eq 0 ]
	exit $?
}

skip() {
	echo "SKIP: $*"
	exit 77
}
