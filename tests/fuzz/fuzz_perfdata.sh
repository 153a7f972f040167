#!/bin/sh
# decode's perf.data reader under libFuzzer (see fuzz_run.sh); the
# seeds are 3 to 19 KiB.
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" perfdata 24576
