#!/bin/sh
# Native journald datagrams of 0 to 64 KiB through the parser and the
# bridge (see fuzz_run.sh).
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" journal_wire 65536
