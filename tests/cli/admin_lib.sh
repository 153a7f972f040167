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
trap 'rm -rf "$T"' EXIT

# as_nobody CMD...: CMD as the user nobody, with a copy of the tool that
# nobody can run wherever the build tree lies (tests/as-nobody).
as_nobody() {
	"$top_srcdir/tests/as-nobody" --stage "$EHSYSLOG" -- "$@"
}

# safe_library: sets lib to a copy of the built library that the preload
# checks accept (root-owned, in root-owned directories only root may
# write: $T, made by mktemp -d, once opened to 755); skips without one.
safe_library() {
	[ -f "$BUILT_LIBRARY" ] || skip "$BUILT_LIBRARY not built"
	[ "$(id -u)" = 0 ] || skip "needs root: the library must be root-owned"
	chmod 755 "$T"
	lib=$T/libehsyslog.so
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

finish() {
	echo "$checks checks, $failures failures"
	[ "$failures" -eq 0 ]
	exit $?
}

skip() {
	echo "SKIP: $*"
	exit 77
}
