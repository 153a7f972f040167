# shellcheck shell=sh
# Sourced by the harnesses whose tests log through tests/cli/kernel_logger
# (tests/cli/kernel_lib.sh, tests/export/uprobe_export.sh).

LOGGER=$top_builddir/tests/cli/kernel_logger

# logs IDENT FACILITY SEVERITY COUNT MESSAGE [LINGER]: kernel_logger with
# $PRELOAD preloaded (the test's own copy of the library, where it has
# one) or else the built library, with $LOG_ENV (NAME=VALUE words) in its
# environment; its pid in $lpid.
LOG_ENV=
logs() {
	# shellcheck disable=SC2086 # LOG_ENV is words
	env LD_PRELOAD="${PRELOAD:-$BUILT_LIBRARY}" $LOG_ENV "$LOGGER" "$@" &
	lpid=$!
	lrc=0
	wait $lpid || lrc=$?
	[ "$lrc" = 0 ] || fail "kernel_logger $* exited $lrc"
}
