# shellcheck shell=sh
# Sourced by the harnesses whose tests log through tests/cli/kernel_logger
# (tests/cli/kernel_lib.sh, tests/export/uprobe_export.sh).

LOGGER=$top_builddir/tests/cli/kernel_logger

# logs IDENT FACILITY SEVERITY COUNT MESSAGE [LINGER]: kernel_logger with
# $PRELOAD preloaded (the test's own copy of the library, where it has
# one) or else the built library, with $LOG_ENV (NAME=VALUE words) in its
# environment; its pid in $lpid.  LINGER "hold" (kernel_logger's @PATH):
# returns once its calls are made and leaves it running, so that a reader
# that looks the process up in /proc finds it however long it takes to
# read the events, until release_loggers.
LOG_ENV=
held_loggers= held_count=0
logs() {
	held=
	n=$#
	for a; do
		if [ "$a" = hold ]; then
			held_count=$((held_count + 1))
			held=$T/logger-held.$held_count
			a=@$held
		fi
		set -- "$@" "$a"
	done
	shift "$n"
	# shellcheck disable=SC2086 # LOG_ENV is words
	env LD_PRELOAD="${PRELOAD:-$BUILT_LIBRARY}" $LOG_ENV "$LOGGER" "$@" &
	lpid=$!
	lrc=0
	if [ -n "$held" ]; then
		while [ ! -e "$held" ] && kill -0 $lpid 2>/dev/null; do
			sleep 0.05
		done
		if [ -e "$held" ]; then
			held_loggers="$held_loggers $lpid"
			return 0
		fi
	fi
	wait $lpid || lrc=$?
	[ "$lrc" = 0 ] || fail "kernel_logger $* exited $lrc"
}

# release_loggers: ends every logger that logs left holding; each must
# exit 0.
release_loggers() {
	for p in $held_loggers; do
		kill -TERM "$p" 2>/dev/null
		lrc=0
		wait "$p" || lrc=$?
		[ "$lrc" = 0 ] || fail "a held kernel_logger (pid $p) exited $lrc"
	done
	held_loggers=
}
