#!/bin/sh
# The stack budget: from a signal handler, every interposed call
# (and the native API) takes at most 2 KiB more stack with the library
# than without it, first or warm, idle, traced or in replace mode.
# tests/bench/stack-depth.sh measures and compares; this runs it with
# the budget.
set -u
if [ "${sanitizers:-no}" = yes ]; then
	echo "SKIP: in an ASan build every frame carries redzones: the budget is the release build's"
	exit 77
fi
if [ -n "${EHS_EMULATED:-}" ]; then
	echo "SKIP: under $EHS_EMULATED the signal frames and stacks are the emulator's, not the machine's"
	exit 77
fi
exec sh "${top_srcdir:-.}/tests/bench/stack-depth.sh" --budget 2048
