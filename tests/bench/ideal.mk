# tests/bench: the native API against an ideal producer of the same
# events (tests/bench/ideal.c), counted by tests/bench/ideal.sh, which
# scripts/bench runs with its other instruction counts.  Linked as the
# bridge's unit tests are: the bridge over the writer's test double, so
# that the traced path runs on a host without user_events; not the
# interposer's socket calls, so both producers call libc's writev.
check_PROGRAMS += tests/bench/bench-native
tests_bench_bench_native_SOURCES = tests/bench/ideal.c
tests_bench_bench_native_LDADD = src/bridge/libbridge.la src/usdt/libusdt.la src/eventheader/libeventheader.la \
	tests/doubles/libuser_events_double.la
tests_bench_bench_native_LDFLAGS = -no-install
EXTRA_DIST += tests/bench/ideal.sh
bench: tests/bench/bench-native

# The same over the real writer, for the traced counts, where user_events
# work (tests/bench/guest-instructions.sh): a second program, the writer
# swapped in at link time for the double.
check_PROGRAMS += tests/bench/bench-native-kernel
tests_bench_bench_native_kernel_SOURCES = tests/bench/ideal.c tests/bench/kernel-tracepoint.c \
	tests/bench/kernel-tracepoint.h preload/fd.c $(BRIDGE_SOCKET_SOURCES)
tests_bench_bench_native_kernel_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_KERNEL
tests_bench_bench_native_kernel_LDADD = src/bridge/libbridge.la src/usdt/libusdt.la src/eventheader/libeventheader.la \
	src/user_events/libuserevents.la -lpthread
tests_bench_bench_native_kernel_LDFLAGS = -no-install
EXTRA_DIST += tests/bench/guest-instructions.sh tests/bench/callgrind-count.sh
bench: tests/bench/bench-native-kernel
