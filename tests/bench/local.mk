# tests/bench: `make bench` measures; `make check` only smoke-runs it.
# A full run writes docs/bench/ and the tables of docs/performance.md.
# The programs are noinst (built by `make bench` and by `make check` for
# the smoke run), never installed and never linked against the library:
# the library is preloaded into them, as into any program.
bench_programs = tests/bench/bench-call tests/bench/bench-call-lttng \
	tests/bench/bench-call-glib tests/bench/bench-startup tests/bench/devlog-listener \
	tests/bench/bench-copies
check_PROGRAMS += $(bench_programs)

tests_bench_bench_call_SOURCES = tests/bench/bench-call.c \
	tests/bench/malloc-count.c tests/bench/malloc-count.h
tests_bench_bench_call_LDADD = -lpthread
# The same loop with LTTng-UST's tracef(): a separate program so that
# LTTng-UST's constructor and threads stay out of every other figure.
tests_bench_bench_call_lttng_SOURCES = $(tests_bench_bench_call_SOURCES)
tests_bench_bench_call_lttng_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_LTTNG
tests_bench_bench_call_lttng_LDADD = -llttng-ust -ldl -lpthread
# And with GLib's logging calls, for the same reason.
tests_bench_bench_call_glib_SOURCES = $(tests_bench_bench_call_SOURCES)
tests_bench_bench_call_glib_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_GLIB
tests_bench_bench_call_glib_CFLAGS = $(AM_CFLAGS) $(GLIB_CFLAGS)
tests_bench_bench_call_glib_LDADD = $(GLIB_LIBS) -lpthread
# The same loop with libsystemd's journal calls (tests only: the library
# never links libsystemd).
if HAVE_LIBSYSTEMD
check_PROGRAMS += tests/bench/bench-call-journal
bench_journal = tests/bench/bench-call-journal
endif
tests_bench_bench_call_journal_SOURCES = $(tests_bench_bench_call_SOURCES)
tests_bench_bench_call_journal_CPPFLAGS = $(AM_CPPFLAGS) -DBENCH_JOURNAL $(LIBSYSTEMD_CFLAGS)
tests_bench_bench_call_journal_LDADD = $(LIBSYSTEMD_LIBS) -lpthread
tests_bench_bench_startup_SOURCES = tests/bench/bench-startup.c
# The uprobe readers' search for copies of the library, the tool's own
# file linked in (the tool is no library to preload).
tests_bench_bench_copies_SOURCES = tests/bench/bench-copies.c src/cli/uprobe/copies.c \
	src/cli/uprobe/copies.h
tests_bench_devlog_listener_SOURCES = tests/bench/devlog-listener.c
# The start-up reference: an empty preloaded object (tests/bench/.libs/
# libbench_empty.so); -rpath only makes libtool build it shared.
check_LTLIBRARIES += tests/bench/libbench_empty.la
tests_bench_libbench_empty_la_SOURCES = tests/bench/empty.c
tests_bench_libbench_empty_la_LDFLAGS = -module -avoid-version -rpath /nowhere

dist_noinst_SCRIPTS += scripts/bench tests/bench/valgrind-qemu
EXTRA_DIST += tests/bench/summarize.awk tests/bench/table.awk tests/bench/plot.gp \
	tests/bench/smoke.sh tests/bench/guest-rate.sh

TESTS += tests/bench/smoke.sh

# tests/cli/kernel_logger and tests/export/otlp_count: the logger and the
# receiver tests/export/bench_export.py runs in the guest, check programs
# that a tree built without make check lacks.
.PHONY: bench
bench: all $(bench_programs) $(bench_journal) tests/bench/libbench_empty.la \
	tests/cli/kernel_logger tests/export/otlp_count tests/bench/stack-depth \
	tests/bench/stack-depth-traced
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  $(SHELL) $(srcdir)/scripts/bench
	top_builddir='$(abs_top_builddir)' $(SHELL) $(srcdir)/tests/bench/stack-depth.sh

# The stack a logging call takes in a signal handler, with and without the
# library, traced over the writer's double (stack-depth-traced).
check_PROGRAMS += tests/bench/stack-depth tests/bench/stack-depth-traced
EXTRA_DIST += tests/bench/stack-depth.sh
# It calls libbsd's, GLib's and libsystemd's logging calls (libsystemd's
# where found), linked: their own figures are the reference.
STACK_CALLS = tests/bench/stack-calls.c tests/bench/stack-calls.h $(SYSLOG_SOCKETS)
STACK_CALLS_CFLAGS = $(GLIB_CFLAGS)
STACK_CALLS_LIBS = $(GLIB_LIBS) $(LIBBSD_LIBS)
if HAVE_LIBSYSTEMD
STACK_CALLS_CFLAGS += $(LIBSYSTEMD_CFLAGS) -DSTACK_JOURNAL
STACK_CALLS_LIBS += $(LIBSYSTEMD_LIBS)
endif
tests_bench_stack_depth_SOURCES = tests/bench/stack-depth.c $(STACK_CALLS)
tests_bench_stack_depth_CFLAGS = $(AM_CFLAGS) $(STACK_CALLS_CFLAGS) -U_FORTIFY_SOURCE
tests_bench_stack_depth_LDADD = $(STACK_CALLS_LIBS)
tests_bench_stack_depth_traced_SOURCES = tests/bench/stack-depth.c $(PRELOAD_SOURCES) \
	$(PRELOAD_SOCKET_SOURCES) $(STACK_CALLS)
tests_bench_stack_depth_traced_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) -DSTACK_TRACED
tests_bench_stack_depth_traced_CFLAGS = $(BRIDGE_TEST_CFLAGS) $(STACK_CALLS_CFLAGS) -U_FORTIFY_SOURCE
tests_bench_stack_depth_traced_LDADD = $(BRIDGE_TEST_LDADD) $(STACK_CALLS_LIBS)
# The program defines every call of those libraries itself (the
# wrappers): they would not be linked as needed, and the wrappers would
# find nothing to pass the calls on to.
tests_bench_stack_depth_traced_LDFLAGS = -no-install -Wl,--no-as-needed -Wl,-z,now

# The smoke run's output folder (make distcheck wants a clean tree).
clean-local: clean-bench-smoke
clean-bench-smoke:
	rm -rf tests/bench/smoke-out
.PHONY: clean-bench-smoke
