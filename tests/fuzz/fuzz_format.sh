#!/bin/sh
# ehs_format against glibc's vsnprintf under libFuzzer (see fuzz_run.sh).
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" format 4096
