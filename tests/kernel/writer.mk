# tests/kernel/writer*: the writer against a kernel with user_events, run
# through scripts/kernel-test (natively as root where the kernel has them,
# else in the QEMU guest, else skipped).  Included from Makefile.am.
# libtracefs reads the events back; only this test uses it.
WRITER_KTEST_TRACEFS_CFLAGS = $(shell $(PKG_CONFIG) --cflags libtracefs libtraceevent)
# (automake refuses pkg-config --libs output in LDADD; these two are all
# that `pkg-config --libs libtracefs libtraceevent` gives on Debian 12)
WRITER_KTEST_TRACEFS_LIBS = -ltracefs -ltraceevent

check_PROGRAMS += tests/kernel/writer_ktest
tests_kernel_writer_ktest_SOURCES = tests/kernel/writer_ktest.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h $(KERNEL_FILES)
tests_kernel_writer_ktest_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(WRITER_KTEST_TRACEFS_CFLAGS)
tests_kernel_writer_ktest_LDADD = libehsyslog.la $(CHECK_LIBS) $(WRITER_KTEST_TRACEFS_LIBS)
tests_kernel_writer_ktest_LDFLAGS = -no-install

TESTS += tests/kernel/writer_kernel.sh
EXTRA_DIST += tests/kernel/writer_kernel.sh

# The priority table (bridge/pri_table.h) with its bytes kept by the
# kernel: the wrappers and the bridge linked in as test_fastpath has them.
check_PROGRAMS += tests/kernel/pri_table_ktest
tests_kernel_pri_table_ktest_SOURCES = tests/kernel/pri_table_ktest.c $(PRELOAD_SOURCES) \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h $(KERNEL_FILES)
tests_kernel_pri_table_ktest_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_kernel_pri_table_ktest_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_kernel_pri_table_ktest_LDADD = $(BRIDGE_TEST_LDADD)
tests_kernel_pri_table_ktest_LDFLAGS = -no-install

TESTS += tests/kernel/pri_table_kernel.sh
EXTRA_DIST += tests/kernel/pri_table_kernel.sh
