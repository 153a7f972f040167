# tests/preload: the interposer's tests.  Host checks of libehsyslog.so
# (pass-through, linkage, exports, start-up syscalls), and Check programs that link
# the wrappers themselves over the bridge and the writer's test double
# (BRIDGE_TEST_LDADD, tests/bridge/local.mk).

# The program the pass-through checks run with and without the library:
# once plain, once fortified so it calls the _chk forms.
check_PROGRAMS += tests/preload/logcalls tests/preload/logcalls_fortify
tests_preload_logcalls_SOURCES = tests/preload/logcalls.c
tests_preload_logcalls_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE -O0
tests_preload_logcalls_fortify_SOURCES = tests/preload/logcalls.c
tests_preload_logcalls_fortify_CFLAGS = $(AM_CFLAGS) -O2 -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2

TESTS += tests/preload/passthrough.sh tests/preload/linkage.sh tests/preload/exports.sh \
	tests/preload/startup_syscalls.sh
dist_noinst_SCRIPTS += tests/preload/passthrough.sh tests/preload/linkage.sh \
	tests/preload/exports.sh tests/preload/startup_syscalls.sh

# The interposer's wrappers linked into the test program itself, over the
# bridge and the writer's double: the program's own calls take the
# library's whole path.
# Their stderr output goes to the test log.
check_PROGRAMS += tests/preload/test_calls
TESTS += tests/preload/test_calls
tests_preload_test_calls_SOURCES = tests/preload/test_calls.c $(PRELOAD_SOURCES)
tests_preload_test_calls_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_preload_test_calls_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_test_calls_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_calls_LDFLAGS = -no-install

# The untraced fast path: no syscall (counted with ptrace), no
# allocation, errno kept, the real syslog never reached in replace mode.
check_PROGRAMS += tests/preload/test_fastpath
TESTS += tests/preload/test_fastpath
tests_preload_test_fastpath_SOURCES = tests/preload/test_fastpath.c $(PRELOAD_SOURCES) \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_preload_test_fastpath_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_preload_test_fastpath_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_test_fastpath_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_fastpath_LDFLAGS = -no-install

# The configuration file read by a later call when the first could not
# open it, and refused unless root's and writable by root alone; with
# the stubs and with the C entry points.
check_PROGRAMS += tests/preload/test_config_late
TESTS += tests/preload/test_config_late
tests_preload_test_config_late_SOURCES = tests/preload/test_config_late.c $(PRELOAD_SOURCES)
tests_preload_test_config_late_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) \
	-DTEST_CONFIG_PATH='"$(sysconfdir)/ehsyslog.conf"'
tests_preload_test_config_late_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_test_config_late_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_config_late_LDFLAGS = -no-install
check_PROGRAMS += tests/preload/test_config_late_c
TESTS += tests/preload/test_config_late_c
tests_preload_test_config_late_c_SOURCES = tests/preload/test_config_late.c $(PRELOAD_C_SOURCES)
tests_preload_test_config_late_c_CPPFLAGS = $(tests_preload_test_config_late_CPPFLAGS) -DEHS_NO_ASM_STUBS
tests_preload_test_config_late_c_CFLAGS = $(tests_preload_test_config_late_CFLAGS)
tests_preload_test_config_late_c_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_config_late_c_LDFLAGS = -no-install

# The same two with the C entry points, which other architectures use:
# built everywhere, so x86-64 runs them too.
check_PROGRAMS += tests/preload/test_calls_c tests/preload/test_fastpath_c
TESTS += tests/preload/test_calls_c tests/preload/test_fastpath_c
tests_preload_test_calls_c_SOURCES = tests/preload/test_calls.c $(PRELOAD_C_SOURCES)
tests_preload_test_calls_c_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) -DEHS_NO_ASM_STUBS
tests_preload_test_calls_c_CFLAGS = $(tests_preload_test_calls_CFLAGS)
tests_preload_test_calls_c_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_calls_c_LDFLAGS = -no-install
tests_preload_test_fastpath_c_SOURCES = tests/preload/test_fastpath.c $(PRELOAD_C_SOURCES) \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_preload_test_fastpath_c_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) -DEHS_NO_ASM_STUBS
tests_preload_test_fastpath_c_CFLAGS = $(tests_preload_test_fastpath_CFLAGS)
tests_preload_test_fastpath_c_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_fastpath_c_LDFLAGS = -no-install

# GLib's calls through preload/glib.c into the writer's double, GLib not linked:
# the level mapping and where each structured field goes.
check_PROGRAMS += tests/preload/test_glib
TESTS += tests/preload/test_glib
tests_preload_test_glib_SOURCES = tests/preload/test_glib.c $(PRELOAD_SOURCES) \
	tests/preload/event_fields.h tests/preload/event_fields.c
tests_preload_test_glib_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_preload_test_glib_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_test_glib_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_glib_LDFLAGS = -no-install

# libsystemd's journal calls through the interposer's wrappers, without
# libsystemd: the KEY=value rules, field by field.
check_PROGRAMS += tests/preload/test_journal
TESTS += tests/preload/test_journal
tests_preload_test_journal_SOURCES = tests/preload/test_journal.c $(PRELOAD_SOURCES) \
	tests/preload/event_fields.h tests/preload/event_fields.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_preload_test_journal_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_preload_test_journal_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_test_journal_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_journal_LDFLAGS = -no-install

# The priority table (bridge/pri_table.h) with its bytes kept by a real
# kernel: the wrappers and the bridge linked as test_fastpath has them,
# over the real writer, run through scripts/kernel-test.
# (per-target CPPFLAGS: the stubs' object must not be the library's)
check_PROGRAMS += tests/preload/pri_table_ktest
tests_preload_pri_table_ktest_SOURCES = tests/preload/pri_table_ktest.c $(PRELOAD_SOURCES) \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h $(KERNEL_FILES)
tests_preload_pri_table_ktest_CPPFLAGS = $(AM_CPPFLAGS)
tests_preload_pri_table_ktest_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_pri_table_ktest_LDADD = src/bridge/libbridge.la src/usdt/libusdt.la src/eventheader/libeventheader.la \
	src/user_events/libuserevents.la $(CHECK_LIBS)
tests_preload_pri_table_ktest_LDFLAGS = -no-install

TESTS += tests/preload/pri_table_kernel.sh
EXTRA_DIST += tests/preload/pri_table_kernel.sh

# The socket calls of programs that send syslog themselves (logger,
# Python's handler, journald's native protocol, TCP and UDP), with the
# daemon's sockets bound in namespaces of the test's own.
check_PROGRAMS += tests/preload/test_socket
TESTS += tests/preload/test_socket
tests_preload_test_socket_SOURCES = tests/preload/test_socket.c $(PRELOAD_SOURCES) \
	$(PRELOAD_SOCKET_SOURCES) tests/preload/event_fields.h tests/preload/event_fields.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h $(SYSLOG_SOCKETS)
tests_preload_test_socket_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_preload_test_socket_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_test_socket_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_test_socket_LDFLAGS = -no-install

# Socket calls programs get wrong (bad pointers, sizes the kernel refuses,
# a crash handler on a small stack), run with and without the library and
# over the writer's double tracing everything (hostile_calls_traced):
# hostile.sh requires one transcript from all.
check_PROGRAMS += tests/preload/hostile_calls tests/preload/hostile_calls_traced
TESTS += tests/preload/hostile.sh
dist_noinst_SCRIPTS += tests/preload/hostile.sh
tests_preload_hostile_calls_SOURCES = tests/preload/hostile_calls.c $(SYSLOG_SOCKETS)
tests_preload_hostile_calls_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_hostile_calls_traced_SOURCES = tests/preload/hostile_calls.c $(PRELOAD_SOURCES) \
	$(PRELOAD_SOCKET_SOURCES) $(SYSLOG_SOCKETS)
tests_preload_hostile_calls_traced_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) -DHOSTILE_TRACED
tests_preload_hostile_calls_traced_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_preload_hostile_calls_traced_LDADD = $(BRIDGE_TEST_LDADD)
tests_preload_hostile_calls_traced_LDFLAGS = -no-install

# The seccomp filter reader against the kernel's verdicts.
check_PROGRAMS += tests/preload/test_cbpf
TESTS += tests/preload/test_cbpf
tests_preload_test_cbpf_SOURCES = tests/preload/test_cbpf.c preload/cbpf.c preload/cbpf.h
tests_preload_test_cbpf_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_preload_test_cbpf_LDADD = $(CHECK_LIBS)

# Programs that install a seccomp filter, then log: with the library,
# with and without a tail, as without it (sandbox.sh on the uprobe
# transport, sandbox_kernel.sh on user_events).
check_PROGRAMS += tests/preload/sandbox_calls
TESTS += tests/preload/sandbox.sh tests/preload/sandbox_kernel.sh
dist_noinst_SCRIPTS += tests/preload/sandbox.sh tests/preload/sandbox_kernel.sh
EXTRA_DIST += tests/preload/sandbox_lib.sh
tests_preload_sandbox_calls_SOURCES = tests/preload/sandbox_calls.c $(SYSLOG_SOCKETS)
tests_preload_sandbox_calls_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE
if HAVE_LIBSECCOMP
tests_preload_sandbox_calls_CPPFLAGS = $(AM_CPPFLAGS) -DHAVE_LIBSECCOMP $(LIBSECCOMP_CFLAGS)
tests_preload_sandbox_calls_LDADD = $(LIBSECCOMP_LIBS)
endif

# The stack budget (docs/performance.md), measured by tests/bench/stack-depth.sh (its
# programs are built for make check there).
TESTS += tests/preload/stack_budget.sh
dist_noinst_SCRIPTS += tests/preload/stack_budget.sh
