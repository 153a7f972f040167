#!/bin/sh
# tests/preload/sandbox.sh where user_events exist (natively, or in the
# test guest): the library registers before the filter, and the tail
# reads user_events, where replace mode keeps a traced call's message
# from /dev/log.  Skipped on a kernel without seccomp.
. "${top_srcdir:-.}/tests/cli/kernel_lib.sh"
. "${top_srcdir:-.}/tests/preload/sandbox_lib.sh"
in_kernel "$0" "$@"

PRELOAD=$BUILT_LIBRARY
REPLACE_KEEPS=yes
# shellcheck disable=SC2317 # called by sandbox_checks
tail_ready() {
	enabled_in "$1" Syslog_L5K800000
}
sandbox_checks
finish
