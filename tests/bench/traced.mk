# tests/bench, traced figures: bench-call again, linked with the bridge
# built for tests (EHS_TESTING: a sink replaces the kernel and every
# tracepoint counts as enabled), so the traced path runs on a host
# without user_events.  Needs tests/bridge/local.mk (libbridge_test.la).
check_PROGRAMS += tests/bench/bench-call-traced
tests_bench_bench_call_traced_SOURCES = $(tests_bench_bench_call_SOURCES)
tests_bench_bench_call_traced_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_TRACED -DEHS_TESTING
tests_bench_bench_call_traced_LDADD = tests/bridge/libbridge_test.la libehsyslog.la -lpthread
tests_bench_bench_call_traced_LDFLAGS = -no-install
bench: tests/bench/bench-call-traced
