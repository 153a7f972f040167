#!/bin/sh
# Messages of 0 to 1 MB through the bridge into the builder (see fuzz_run.sh).
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" message 1048576
