# tests/usdt: the library's USDT probe sites, read through uprobes on
# this machine's own kernel (no user_events needed).
check_PROGRAMS += tests/usdt/probe_calls
tests_usdt_probe_calls_SOURCES = tests/usdt/probe_calls.c
tests_usdt_probe_calls_LDADD = libehsyslog.la
tests_usdt_probe_calls_LDFLAGS = -no-install
TESTS += tests/usdt/probes.sh tests/usdt/bpftrace.sh
dist_noinst_SCRIPTS += tests/usdt/probes.sh tests/usdt/probes.py tests/usdt/bpftrace.sh
