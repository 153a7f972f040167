#!/bin/sh
# The decoder's fuzz target: regressions, then a bounded fuzzing time.
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" decode 4096
