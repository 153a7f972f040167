# tests/bench, traced figures: bench-call again, linked with the
# interposer's wrappers (preload/, as tests/preload/test_calls has them)
# and the bridge's objects over the writer's test double (tests/doubles/:
# every tracepoint counts as traced and events come back to the program),
# so the traced path, from the program's own syslog() call on, runs on a
# host without user_events.  Per-target CPPFLAGS: the wrappers' objects
# get names of their own, apart from the library's; no _FORTIFY_SOURCE,
# whose inlines clash with the wrappers' definitions.
check_PROGRAMS += tests/bench/bench-call-traced
# It links the socket calls too (as tests/preload/test_socket does), for
# the traced datagram kinds; the program's own write, writev and send
# then go through their interposed forms, as under the library.
tests_bench_bench_call_traced_SOURCES = $(tests_bench_bench_call_SOURCES) $(PRELOAD_SOURCES) \
	$(PRELOAD_SOCKET_SOURCES)
tests_bench_bench_call_traced_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_TRACED
tests_bench_bench_call_traced_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE
tests_bench_bench_call_traced_LDADD = src/bridge/libbridge.la src/usdt/libusdt.la src/eventheader/libeventheader.la \
	tests/doubles/libuser_events_double.la -lpthread
tests_bench_bench_call_traced_LDFLAGS = -no-install
bench: tests/bench/bench-call-traced

# And over the real writer, for the real-kernel figures (kernel_traced,
# kernel_writev: tests/bench/guest-rate.sh; the traced instruction
# counts: tests/bench/guest-instructions.sh): ld's --wrap lets the
# program keep a copy of the first event on its way to the writer.  The
# socket and stdio calls too, for the traced stdout kinds: the program's
# own write, writev and printf then take their interposed forms, as
# under the library.
check_PROGRAMS += tests/bench/bench-call-kernel
tests_bench_bench_call_kernel_SOURCES = $(tests_bench_bench_call_SOURCES) $(PRELOAD_SOURCES) \
	preload/fd.c $(PRELOAD_SOCKET_SOURCES) preload/stdio.c tests/bench/kernel-tracepoint.c \
	tests/bench/kernel-tracepoint.h
tests_bench_bench_call_kernel_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_TRACED -DBENCH_KERNEL
tests_bench_bench_call_kernel_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE
tests_bench_bench_call_kernel_LDADD = src/bridge/libbridge.la src/usdt/libusdt.la src/eventheader/libeventheader.la \
	src/user_events/libuserevents.la -lpthread
tests_bench_bench_call_kernel_LDFLAGS = -no-install -Wl,--wrap=ue_tracepoint_write \
	-Wl,--wrap=ue_tracepoint_write_sized
bench: tests/bench/bench-call-kernel
