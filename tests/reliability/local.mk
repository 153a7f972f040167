# tests/reliability: the library under load, faults and bad input against
# a real user_events kernel (reliab_kernel.sh runs reliab_ktest through
# scripts/kernel-test, in one guest boot), and the report built from it
# (scripts/reliability-report, `make reliability-report`).
RELIAB_TRACEFS_CFLAGS = $(shell $(PKG_CONFIG) --cflags libtracefs libtraceevent)

check_PROGRAMS += tests/reliability/reliab_ktest
tests_reliability_reliab_ktest_SOURCES = tests/reliability/reliab_ktest.c \
	tests/reliability/reliab.h tests/reliability/reader.h tests/reliability/reader.c \
	tests/reliability/load.c tests/reliability/concurrency.c \
	tests/reliability/faults.c tests/reliability/input.c tests/reliability/subjects.c \
	tests/reliability/security.c tests/reliability/retry.c $(KERNEL_FILES)
tests_reliability_reliab_ktest_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_reliability_reliab_ktest_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(RELIAB_TRACEFS_CFLAGS)
tests_reliability_reliab_ktest_LDADD = tests/lib/libehsyslog_layers.la $(CHECK_LIBS) -ltracefs -ltraceevent
tests_reliability_reliab_ktest_LDFLAGS = -no-install

# Loads the library with dlopen(): linked with no part of it.
check_PROGRAMS += tests/reliability/dlopen_user
tests_reliability_dlopen_user_SOURCES = tests/reliability/dlopen_user.c $(KERNEL_FILES)
tests_reliability_dlopen_user_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_reliability_dlopen_user_LDADD = -ldl

# dup2()s over the descriptor of a dlopen()ed library.
check_PROGRAMS += tests/reliability/dlopen_dup2
tests_reliability_dlopen_dup2_SOURCES = tests/reliability/dlopen_dup2.c $(KERNEL_FILES)
tests_reliability_dlopen_dup2_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_reliability_dlopen_dup2_LDADD = -ldl

TESTS += tests/reliability/reliab_kernel.sh
dist_noinst_SCRIPTS += tests/reliability/reliab_kernel.sh scripts/reliability-report \
	scripts/test-sanitizers
EXTRA_DIST += docs/security.md docs/reliability.md

# docs/reliability.md from the last `make check` (its test logs).
reliability-report:
	$(top_srcdir)/scripts/reliability-report $(top_builddir) > $(top_srcdir)/docs/reliability.md
.PHONY: reliability-report
