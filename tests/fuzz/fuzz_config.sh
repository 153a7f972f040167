#!/bin/sh
# The configuration parser under libFuzzer (see fuzz_run.sh).
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" config 4096
