# tests/bridge: unit tests of the bridge (host, Check) and host checks of
# the interposer (pass-through, linkage, exports).

# The bridge's own objects (the library's), the builder, and the writer's
# test double instead of the writer: events are captured and every
# tracepoint counts as traced while a test says so.
check_LTLIBRARIES += tests/bridge/libcapture.la
tests_bridge_libcapture_la_SOURCES = tests/bridge/capture.h tests/bridge/capture.c

BRIDGE_TEST_LDADD = tests/bridge/libcapture.la src/bridge/libbridge.la \
	src/eventheader/libeventheader.la tests/doubles/libuser_events_double.la $(CHECK_LIBS)
BRIDGE_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
BRIDGE_TEST_CPPFLAGS = $(AM_CPPFLAGS)

check_PROGRAMS += tests/bridge/test_schema tests/bridge/test_config_parse \
	tests/bridge/test_emit tests/bridge/test_format
TESTS += tests/bridge/test_schema tests/bridge/test_config_parse \
	tests/bridge/test_emit tests/bridge/test_format

tests_bridge_test_schema_SOURCES = tests/bridge/test_schema.c
tests_bridge_test_schema_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_schema_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_schema_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_schema_LDFLAGS = -no-install

tests_bridge_test_config_parse_SOURCES = tests/bridge/test_config_parse.c
tests_bridge_test_config_parse_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_config_parse_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_config_parse_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_config_parse_LDFLAGS = -no-install

tests_bridge_test_emit_SOURCES = tests/bridge/test_emit.c
tests_bridge_test_emit_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_emit_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_emit_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_emit_LDFLAGS = -no-install

# ehs_format against glibc's vsnprintf: the formats are built at run
# time, so the compiler cannot check them.
tests_bridge_test_format_SOURCES = tests/bridge/test_format.c
tests_bridge_test_format_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_format_CFLAGS = $(BRIDGE_TEST_CFLAGS) -Wno-format-nonliteral
tests_bridge_test_format_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_format_LDFLAGS = -no-install

# The program the pass-through checks run with and without the library:
# once plain, once fortified so it calls the _chk forms.
check_PROGRAMS += tests/bridge/logcalls tests/bridge/logcalls_fortify
tests_bridge_logcalls_SOURCES = tests/bridge/logcalls.c
tests_bridge_logcalls_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE -O0
tests_bridge_logcalls_fortify_SOURCES = tests/bridge/logcalls.c
tests_bridge_logcalls_fortify_CFLAGS = $(AM_CFLAGS) -O2 -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2

TESTS += tests/bridge/passthrough.sh tests/bridge/linkage.sh \
	tests/bridge/startup_syscalls.sh
dist_noinst_SCRIPTS += tests/bridge/passthrough.sh tests/bridge/linkage.sh \
	tests/bridge/startup_syscalls.sh

# The interposer's wrappers linked into the test program itself, over the
# test bridge: the program's own calls take the library's whole path.
# Their stderr output goes to the test log.
check_PROGRAMS += tests/bridge/test_calls
TESTS += tests/bridge/test_calls
tests_bridge_test_calls_SOURCES = tests/bridge/test_calls.c $(PRELOAD_SOURCES)
tests_bridge_test_calls_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_calls_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_bridge_test_calls_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_calls_LDFLAGS = -no-install

# The untraced fast path: no syscall (counted with ptrace), no
# allocation, errno kept, the real syslog never reached in replace mode.
check_PROGRAMS += tests/bridge/test_fastpath
TESTS += tests/bridge/test_fastpath
tests_bridge_test_fastpath_SOURCES = tests/bridge/test_fastpath.c $(PRELOAD_SOURCES) \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_bridge_test_fastpath_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_fastpath_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_bridge_test_fastpath_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_fastpath_LDFLAGS = -no-install

# The same two with the C entry points, which other architectures use:
# built everywhere, so x86-64 runs them too.
check_PROGRAMS += tests/bridge/test_calls_c tests/bridge/test_fastpath_c
TESTS += tests/bridge/test_calls_c tests/bridge/test_fastpath_c
tests_bridge_test_calls_c_SOURCES = tests/bridge/test_calls.c $(PRELOAD_C_SOURCES)
tests_bridge_test_calls_c_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) -DEHS_NO_ASM_STUBS
tests_bridge_test_calls_c_CFLAGS = $(tests_bridge_test_calls_CFLAGS)
tests_bridge_test_calls_c_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_calls_c_LDFLAGS = -no-install
tests_bridge_test_fastpath_c_SOURCES = tests/bridge/test_fastpath.c $(PRELOAD_C_SOURCES) \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_bridge_test_fastpath_c_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS) -DEHS_NO_ASM_STUBS
tests_bridge_test_fastpath_c_CFLAGS = $(tests_bridge_test_fastpath_CFLAGS)
tests_bridge_test_fastpath_c_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_fastpath_c_LDFLAGS = -no-install

# The event head ehs_emit keeps per ident: bytes, openlog and closelog,
# and a race of openlog with threads and a signal handler logging.
check_PROGRAMS += tests/bridge/test_ident_cache
TESTS += tests/bridge/test_ident_cache
tests_bridge_test_ident_cache_SOURCES = tests/bridge/test_ident_cache.c
tests_bridge_test_ident_cache_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_ident_cache_CFLAGS = $(BRIDGE_TEST_CFLAGS) -pthread
tests_bridge_test_ident_cache_LDADD = $(BRIDGE_TEST_LDADD) -lpthread
tests_bridge_test_ident_cache_LDFLAGS = -no-install

# The native API: ehs_event's bytes, u8 fields, errors, and the cache of
# ehs_event_cached against ehs_event, with threads and a signal handler.
check_PROGRAMS += tests/bridge/test_native
TESTS += tests/bridge/test_native
tests_bridge_test_native_SOURCES = tests/bridge/test_native.c
tests_bridge_test_native_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_native_CFLAGS = $(BRIDGE_TEST_CFLAGS) -pthread
tests_bridge_test_native_LDADD = $(BRIDGE_TEST_LDADD) -lpthread
tests_bridge_test_native_LDFLAGS = -no-install

# GLib's calls through preload/glib.c into the sink, GLib not linked:
# the level mapping and where each structured field goes.
check_PROGRAMS += tests/bridge/test_glib
TESTS += tests/bridge/test_glib
tests_bridge_test_glib_SOURCES = tests/bridge/test_glib.c $(PRELOAD_SOURCES) \
	tests/bridge/event_fields.h tests/bridge/event_fields.c
tests_bridge_test_glib_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_glib_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_bridge_test_glib_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_glib_LDFLAGS = -no-install

# libsystemd's journal calls through the interposer's wrappers, without
# libsystemd: the KEY=value rules, field by field.
check_PROGRAMS += tests/bridge/test_journal
TESTS += tests/bridge/test_journal
tests_bridge_test_journal_SOURCES = tests/bridge/test_journal.c $(PRELOAD_SOURCES) \
	tests/bridge/event_fields.h tests/bridge/event_fields.c \
	tests/user_events/nosyscall.c tests/user_events/nosyscall.h
tests_bridge_test_journal_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_journal_CFLAGS = $(BRIDGE_TEST_CFLAGS) -U_FORTIFY_SOURCE
tests_bridge_test_journal_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_journal_LDFLAGS = -no-install
