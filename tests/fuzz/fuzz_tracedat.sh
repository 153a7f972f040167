#!/bin/sh
# decode's trace.dat path under libFuzzer (see fuzz_run.sh); the seeds
# are 4 to 9 KiB.
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" tracedat 16384
