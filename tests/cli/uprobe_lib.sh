# shellcheck shell=sh
# Shared by the tests/cli/uprobe_*.sh tests: sourced, not run.  Adds to
# admin_lib.sh what the uprobe transport's tests need: running the test
# script itself in a private mount namespace with a fresh tracefs
# (scripts/tracefs-ns) on this machine's kernel, a copy of the built
# library of the test's own (so its uprobe events are a group no other
# test uses), and the removal of every uprobe event of that group when
# the test ends, however it ends.
. "${top_srcdir:-.}/tests/cli/admin_lib.sh"
. "${top_srcdir:-.}/tests/lib/top_instance.sh"

TR=/sys/kernel/tracing
unset EHSYSLOG_PROVIDER EHSYSLOG_PASSTHROUGH EHSYSLOG_DISABLE EHSYSLOG_TRACEFS LD_PRELOAD
export EHSYSLOG_CONFIG="$T/absent.conf" EHSYSLOG_RUNTIME_DIR="$T/run"
# The installed library is one that does not exist: a test that forgets
# to name its copy fails rather than define group ehsyslog.
export EHSYSLOG_LIBRARY=/nonexistent/libehsyslog.so.0

# in_namespace [--pid] SCRIPT [ARG]...: unless SCRIPT runs with
# --inside already, runs "SCRIPT --inside" in a private mount namespace
# with a fresh tracefs and exits with its status; skips (77) where that
# cannot be, or where this kernel has no uprobe events.  Inside, returns.
# --pid: in a PID namespace of its own too, with its /proc: for a test
# whose tails follow every copy of the library the processes they see
# map, which must not trace other suites' programs.  Pids there are not
# those the kernel records.
in_namespace() {
	pidns=
	[ "$1" != --pid ] || { pidns="unshare --pid --fork --mount-proc"; shift; }
	script=$1
	shift
	[ "${1:-}" = --inside ] && return 0
	[ -f "$BUILT_LIBRARY" ] || skip "$BUILT_LIBRARY not built"
	ns=$top_srcdir/scripts/tracefs-ns
	why=$("$ns" --check 2>&1) || skip "no private tracefs here: $why"
	"$ns" fresh -- test -e "$TR/uprobe_events" ||
		skip "this kernel has no uprobe events (CONFIG_UPROBE_EVENTS)"
	nrc=0
	# shellcheck disable=SC2086 # empty, or unshare and its options
	"$ns" fresh -- $pidns "$script" --inside || nrc=$?
	exit $nrc
}

# file_offset LIB ADDRESS: ADDRESS through the PT_LOAD segment holding it.
file_offset() {
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $5 }' | {
		while read -r o v f; do
			if [ $(($2)) -ge $((v)) ] && [ $(($2)) -lt $((v + f)) ]; then
				echo $(($2 - v + o))
				return 0
			fi
		done
		return 1
	}
}

# site_offset LIB OFFSET: where the tool puts the probe of the site at
# file offset OFFSET of LIB: past its nop when a nop5 follows it and the
# kernel optimises uprobes on a nop5 (x86-64 6.18: it has the uprobe
# system call, 336, which answers ENXIO outside its trampoline), else
# OFFSET.
site_offset() {
	if [ "$(uname -m)" = x86_64 ] && [ "$(od -An -tx1 -j "$2" -N6 "$1" | tr -d ' \n')" = 900f1f440000 ] &&
		python3 -c '
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
sys.exit(0 if libc.syscall(336) == -1 and ctypes.get_errno() == errno.ENXIO else 1)'; then
		echo $(($2 + 1))
	else
		echo "$2"
	fi
}

# expect_quiet FILE: FILE ($T/FILE), a tail's standard error, is empty
# but for notes on copies of the library it found and cannot follow
# (another probe layout: other suites' test libraries, say).
expect_quiet() {
	checks=$((checks + 1))
	! grep -v "^ehsyslog: note: the copy of the library that pid [0-9]* maps (.*) cannot be followed: " "$T/$1" ||
		fail "$1 is not empty: $(cat "$T/$1")"
}

# start_copies: two programs that preload copies of the built library
# the tests do not name: $T/vendored's (VENDORED) and one on a tmpfs at
# $T/private (PRIVATE) that only a mount namespace of its own has.  Each
# runs $T/copy.py NAME: "NAME N" every 100 ms until $T/stop exists
# (stop_copies), then "NAME last"; NAME is vendored or private.
start_copies() {
	mkdir "$T/vendored" "$T/private"
	cp "$BUILT_LIBRARY" "$T/vendored/libehsyslog.so.0"
	VENDORED=$(realpath "$T/vendored/libehsyslog.so.0")
	PRIVATE=$(realpath "$T/private")
	runtimes=$(sanitizer_runtimes "$VENDORED")
	cat >"$T/copy.py" <<'PY'
import os, sys, syslog, time
name, stop = sys.argv[1], sys.argv[2]
syslog.openlog(name, 0, syslog.LOG_USER)
i = 0
while not os.path.exists(stop) and i < 3000:
    syslog.syslog(syslog.LOG_INFO, "%s %d" % (name, i))
    i += 1
    time.sleep(0.1)
syslog.syslog(syslog.LOG_INFO, "%s last" % name)
PY
	LD_PRELOAD=$runtimes$VENDORED python3 "$T/copy.py" vendored "$T/stop" 2>"$T/vendored.err" &
	vendored=$!
	# shellcheck disable=SC2016 # the namespace's shell expands these
	unshare --mount --propagation private sh -c '
		mount -t tmpfs none "$1" && cp "$2" "$1/libehsyslog.so.0" || exit 99
		LD_PRELOAD=$3$1/libehsyslog.so.0 exec python3 "$4" private "$5"' sh \
		"$PRIVATE" "$BUILT_LIBRARY" "$runtimes" "$T/copy.py" "$T/stop" 2>"$T/private.err" &
	private=$!
}

# stop_copies: both programs log their last message and exit 0.
stop_copies() {
	touch "$T/stop"
	wait $vendored || fail "the vendored program exited $?: $(cat "$T/vendored.err")"
	wait $private || fail "the private program exited $?: $(cat "$T/private.err")"
}

# expect_each_once LABEL NAME FILE [GAPS]: FILE's lines, NAME's messages
# as a reader gave them, are "NAME N" for N rising from the first on,
# each once, then "NAME last", with at most GAPS (0) runs of those N
# missing: a probe added to an enabled event is armed by disabling the
# event and enabling it again (src/cli/uprobe/rearm.h), and what the
# other files' probes fire meanwhile is lost, one run per arming, as
# long as the kernel takes (not judged: a loaded machine takes longer).
expect_each_once() {
	first=$(sed -n "1s/^$2 //p" "$3")
	numbers=$(sed -n "s/^$2 \([0-9][0-9]*\)$/\1/p" "$3")
	last=$(printf '%s\n' "$numbers" | tail -n 1)
	lost=0 gaps=0
	if [ -n "$first" ]; then
		lost=$((last - first + 1 - $(printf '%s\n' "$numbers" | wc -l)))
		gaps=$(printf '%s\n' "$numbers" | awk 'NR > 1 && $1 > prev + 1 { g++ } { prev = $1 } END { print g + 0 }')
	fi
	[ "$lost" -le 0 ] ||
		echo "note: $1: $lost of $2's messages lost in $gaps run(s) while probes were armed"
	{
		[ -z "$first" ] || seq "$first" "$last" | sed "s/^/$2 /"
		echo "$2 last"
	} >"$3.want"
	if [ "$lost" -gt 0 ] && [ "$gaps" -le "${4:-0}" ]; then
		# The lost ones may be missing, nothing else; order and once kept.
		grep -vxF -f "$3" "$3.want" >"$3.missing" || :
		grep -vxF -f "$3.missing" "$3.want" >"$3.want.kept"
		mv "$3.want.kept" "$3.want"
	fi
	expect_same "$1: $2's messages, each once from the first on" "$3.want" "$3"
}

# own_library PATH: copies the built library to PATH (in $T); sets LIB
# to it and GROUP to its group, ehsyslog_ and FNV-1a of its real path
# (computed here, not asked of the tool), and removes that group's
# events when the test exits.
own_library() {
	cp "$BUILT_LIBRARY" "$1"
	own_events "$1"
}

# own_events PATH: LIB and GROUP for the library at PATH, removed at exit;
# PRELOAD, what LD_PRELOAD takes to load it into python3 (in a sanitizer
# build, the runtimes first, and python's leaks not reported).
own_events() {
	LIB=$(realpath "$1")
	# shellcheck disable=SC2034 # used by the tests that source this
	PRELOAD=$(sanitizer_runtimes "$LIB")$LIB
	[ "${sanitizers:-no}" != yes ] || export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
	GROUP=ehsyslog_$(python3 -c '
import sys
h = 2166136261
for b in sys.argv[1].encode():
    h = ((h ^ b) * 16777619) & 0xffffffff
print("%08x" % h)' "$LIB")
	OWNED_GROUPS="${OWNED_GROUPS:-} $GROUP"
}

# installed_library PATH: as own_library, and the copy stands for the
# installed library (EHSYSLOG_LIBRARY), so its events are the group
# ehsyslog, which two tests must not define at once: the test holds the
# lock of that group (descriptor 8) until it exits.
INSTALLED_GROUP_LOCK=/tmp/ehsyslog-tests-installed-group.lock
installed_library() {
	own_library "$1"
	exec 8>"$INSTALLED_GROUP_LOCK"
	flock 8
	export EHSYSLOG_LIBRARY="$LIB"
	GROUP=ehsyslog
	OWNED_GROUPS="$OWNED_GROUPS ehsyslog"
}

# At exit: every instance of this test's tails gone (their processes
# are), then each event of the test's groups disabled where a leftover
# enabled it and removed.  Before $T goes.
remove_owned() {
	for g in ${OWNED_GROUPS:-}; do
		for l in critical error warning info verbose; do
			for e in "$TR/events/$g/$l" "$TR"/instances/*/events/"$g/$l"; do
				[ -e "$e/enable" ] && echo 0 >"$e/enable" 2>/dev/null
			done
			echo "-:$g/$l" >>"$TR/uprobe_events" 2>/dev/null
		done
	done
	return 0
}
trap 'remove_owned; rm -rf "$T" ${S:+"$S"}' EXIT

# defined GROUP: the events of GROUP in uprobe_events, "GROUP/NAME" each.
defined() {
	sed -n "s|^p:\\($1/[a-z]*\\) .*|\\1|p" "$TR/uprobe_events"
}

# expect_all_removed: out has cleanup's line for each of GROUP's five
# events, none is defined any more, and no note of them is left in $T/run.
expect_all_removed() {
	for l in critical error warning info verbose; do
		expect_line out "removed uprobe event $GROUP/$l (the reader that defined it is gone)"
	done
	checks=$((checks + 1))
	[ -z "$(defined "$GROUP")" ] || fail "cleanup left defined: $(defined "$GROUP")"
	checks=$((checks + 1))
	[ -z "$(ls "$T/run")" ] || fail "cleanup left: $(ls "$T/run")"
}

# enabled_in_tail PID GROUP [LAST]: the tail PID's instance has GROUP's
# event LAST (default verbose) enabled.  A tail enables the levels it
# follows in order, critical first, so the least severe one it follows
# is the last: before it shows 1, a warning logged may not be traced.
enabled_in_tail() {
	for inst in "$TR/instances/ehsyslog-tail-$1-"*; do
		[ "$(cat "$inst/events/$2/${3:-verbose}/enable" 2>/dev/null)" = 1 ] && return 0
	done
	return 1
}

# settled: no reader is adding or arming probes.  They hold an
# exclusive flock on uprobe_events meanwhile (ehsyslog(1)): once it is
# free, a probe defined before is armed.  util-linux's flock(1).
settled() {
	flock -w 60 "$TR/uprobe_events" true
}

# armed GROUP EVENT PID...: the instance of each reader PID has
# GROUP/EVENT enabled (again, after the arming of an added probe).
armed() {
	group=$1 event=$2
	shift 2
	for pid in "$@"; do
		enabled_in_tail "$pid" "$group" "$event" || return 1
	done
}
