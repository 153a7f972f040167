# tests/e2e: the interposer end to end in a real kernel (the QEMU guest
# through scripts/kernel-test): real programs under LD_PRELOAD,
# /etc/ld.so.preload and direct linking, events read back with
# `ehsyslog tail --json` and compared field by field (compare.py).
# Each script boots the guest once and runs all its checks inside.
#
# The test programs get no sanitizer flags: they run with the library
# preloaded, where a sanitizer runtime would have to come first.
E2E_CFLAGS = $(WARN_CFLAGS)
E2E_COMMON = tests/e2e/expect.c tests/e2e/expect.h

check_PROGRAMS += tests/e2e/calls_plain tests/e2e/calls_fortify \
	tests/e2e/calls_linked tests/e2e/threads tests/e2e/forkexec

# The same calls twice: plain (syslog, vsyslog) and fortified
# (__syslog_chk, __vsyslog_chk; calls.sh checks the imports with nm).
tests_e2e_calls_plain_SOURCES = tests/e2e/calls.c $(E2E_COMMON)
tests_e2e_calls_plain_CPPFLAGS = $(AM_CPPFLAGS) -U_FORTIFY_SOURCE
tests_e2e_calls_plain_CFLAGS = $(E2E_CFLAGS)
tests_e2e_calls_plain_LDFLAGS =
tests_e2e_calls_plain_LDADD = $(LIBBSD_LIBS)
tests_e2e_calls_fortify_SOURCES = tests/e2e/calls.c $(E2E_COMMON)
tests_e2e_calls_fortify_CPPFLAGS = $(AM_CPPFLAGS) -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
tests_e2e_calls_fortify_CFLAGS = $(E2E_CFLAGS) -O2
tests_e2e_calls_fortify_LDFLAGS =
tests_e2e_calls_fortify_LDADD = $(LIBBSD_LIBS)
# Linked with the library: new code's way, no preload at all.
tests_e2e_calls_linked_SOURCES = tests/e2e/calls.c $(E2E_COMMON)
tests_e2e_calls_linked_CPPFLAGS = $(AM_CPPFLAGS) -U_FORTIFY_SOURCE
tests_e2e_calls_linked_CFLAGS = $(E2E_CFLAGS)
tests_e2e_calls_linked_LDFLAGS = -no-install
tests_e2e_calls_linked_LDADD = libehsyslog.la $(LIBBSD_LIBS)

tests_e2e_threads_SOURCES = tests/e2e/threads.c $(E2E_COMMON)
tests_e2e_threads_CFLAGS = $(E2E_CFLAGS) -pthread
tests_e2e_threads_LDFLAGS = -pthread
tests_e2e_forkexec_SOURCES = tests/e2e/forkexec.c $(E2E_COMMON)
tests_e2e_forkexec_CFLAGS = $(E2E_CFLAGS)
tests_e2e_forkexec_LDFLAGS =

# A caller of syslog() built the way distributions build programs (-O2,
# no frame pointers), for perf to unwind through the stubs (unwind.sh).
check_PROGRAMS += tests/e2e/unwind
tests_e2e_unwind_SOURCES = tests/e2e/unwind.c
tests_e2e_unwind_CPPFLAGS = $(AM_CPPFLAGS) -U_FORTIFY_SOURCE
tests_e2e_unwind_CFLAGS = $(E2E_CFLAGS) -O2 -fomit-frame-pointer
tests_e2e_unwind_LDFLAGS =

E2E_TESTS = tests/e2e/calls.sh tests/e2e/passthrough.sh tests/e2e/facility.sh \
	tests/e2e/programs.sh tests/e2e/preload.sh tests/e2e/unwind.sh \
	tests/e2e/clients.sh
TESTS += $(E2E_TESTS)
dist_noinst_SCRIPTS += $(E2E_TESTS)
dist_noinst_DATA += tests/e2e/lib.sh tests/e2e/compare.py tests/e2e/devlog.py

# GLib's logging calls (tests/e2e/glib.sh): a real GLib program, built
# against Debian's libglib2.0-dev (the tests' dependency only).
check_PROGRAMS += tests/e2e/glib_calls
tests_e2e_glib_calls_SOURCES = tests/e2e/glib_calls.c tests/e2e/glib_structured.c \
	tests/e2e/glib_calls.h
tests_e2e_glib_calls_CFLAGS = $(E2E_CFLAGS) $(GLIB_CFLAGS)
tests_e2e_glib_calls_LDFLAGS =
tests_e2e_glib_calls_LDADD = $(GLIB_LIBS)
# It runs under tests/cli/kernel_lib.sh, the tool tests' harness: it also
# checks what `ehsyslog decode` prints of these events.
TESTS += tests/e2e/glib.sh
dist_noinst_SCRIPTS += tests/e2e/glib.sh
dist_noinst_DATA += tests/e2e/glib_check.py

# libsystemd's journal calls from a program built against Debian's
# libsystemd (test-only dependency): events checked with our decoder and
# an independent one, journald's datagrams with and without the library.
if HAVE_LIBSYSTEMD
check_PROGRAMS += tests/e2e/journal_calls
tests_e2e_journal_calls_SOURCES = tests/e2e/journal.c
tests_e2e_journal_calls_CFLAGS = $(E2E_CFLAGS) $(LIBSYSTEMD_CFLAGS)
tests_e2e_journal_calls_LDADD = $(LIBSYSTEMD_LIBS)
# A program without libsystemd that dlopens a plugin linked with it.
check_PROGRAMS += tests/e2e/journal_dlopen
check_LTLIBRARIES += tests/e2e/libjournal_plugin.la
endif
tests_e2e_journal_dlopen_SOURCES = tests/e2e/journal_dlopen.c
tests_e2e_journal_dlopen_CFLAGS = $(E2E_CFLAGS)
tests_e2e_journal_dlopen_LDADD = -ldl
tests_e2e_libjournal_plugin_la_SOURCES = tests/e2e/journal_plugin.c
tests_e2e_libjournal_plugin_la_CFLAGS = $(E2E_CFLAGS) $(LIBSYSTEMD_CFLAGS)
tests_e2e_libjournal_plugin_la_LIBADD = $(LIBSYSTEMD_LIBS)
tests_e2e_libjournal_plugin_la_LDFLAGS = -module -avoid-version -rpath /nowhere
TESTS += tests/e2e/journal.sh
dist_noinst_SCRIPTS += tests/e2e/journal.sh
dist_noinst_DATA += tests/e2e/journal_check.py

# Programs that write to /dev/log and journald's socket themselves, and
# the clients that come with Debian (logger, Python's SysLogHandler,
# Perl's Sys::Syslog): one event per datagram, the listener's bytes
# unchanged (tests/e2e/clients.sh).  clients_calls: a call the library
# catches whose datagram must not make a second event.
check_PROGRAMS += tests/e2e/clients tests/e2e/clients_calls
tests_e2e_clients_SOURCES = tests/e2e/clients.c
tests_e2e_clients_CFLAGS = $(E2E_CFLAGS)
tests_e2e_clients_LDFLAGS =
tests_e2e_clients_calls_SOURCES = tests/e2e/clients_calls.c
tests_e2e_clients_calls_CFLAGS = $(E2E_CFLAGS) $(GLIB_CFLAGS)
tests_e2e_clients_calls_LDFLAGS =
tests_e2e_clients_calls_LDADD = $(GLIB_LIBS)
if HAVE_LIBSYSTEMD
tests_e2e_clients_calls_CFLAGS += $(LIBSYSTEMD_CFLAGS) -DE2E_HAVE_LIBSYSTEMD
tests_e2e_clients_calls_LDADD += $(LIBSYSTEMD_LIBS)
endif
dist_noinst_DATA += tests/e2e/clients_run.sh tests/e2e/clients_listen.py \
	tests/e2e/clients_check.py
