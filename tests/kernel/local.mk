# tests/kernel: the real-kernel environment itself, and the priority
# table there (preload's; it goes where preload's tests go).  A test that
# needs a kernel with user_events runs its program through
# "$top_srcdir/scripts/kernel-test" PROGRAM ARGS, which runs it natively,
# in the QEMU guest (scripts/guest-run), or exits 77 saying why.
# guest_smoke.sh proves that environment itself.
dist_noinst_SCRIPTS += tests/kernel/guest_smoke.sh
TESTS += tests/kernel/guest_smoke.sh

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
