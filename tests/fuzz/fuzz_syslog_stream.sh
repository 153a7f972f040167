#!/bin/sh
# Stream sends of 0 to 64 KiB cut into frames (see fuzz_run.sh).
exec "${top_srcdir:-.}/tests/fuzz/fuzz_run.sh" syslog_stream 65536
