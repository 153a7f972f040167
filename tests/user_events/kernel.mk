# tests/user_events/writer_*: the writer against a kernel with
# user_events, run through scripts/kernel-test (natively as root where the
# kernel has them, else in the QEMU guest, else skipped).  Included from
# Makefile.am.
# libtracefs reads the events back; only this test uses it.
WRITER_KTEST_TRACEFS_CFLAGS = $(shell $(PKG_CONFIG) --cflags libtracefs libtraceevent)
# (automake refuses pkg-config --libs output in LDADD; these two are all
# that `pkg-config --libs libtracefs libtraceevent` gives on Debian 12)
WRITER_KTEST_TRACEFS_LIBS = -ltracefs -ltraceevent

check_PROGRAMS += tests/user_events/writer_ktest
tests_user_events_writer_ktest_SOURCES = tests/user_events/writer_ktest.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h $(KERNEL_FILES)
tests_user_events_writer_ktest_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(WRITER_KTEST_TRACEFS_CFLAGS)
tests_user_events_writer_ktest_LDADD = tests/lib/libehsyslog_layers.la $(CHECK_LIBS) $(WRITER_KTEST_TRACEFS_LIBS)
tests_user_events_writer_ktest_LDFLAGS = -no-install

TESTS += tests/user_events/writer_kernel.sh
EXTRA_DIST += tests/user_events/writer_kernel.sh
