# tests/bridge: unit tests of the bridge (host, Check).  The interposer's
# tests, which link these same libraries, are in tests/preload/local.mk.

# The bridge's own objects (the library's), the builder, and the writer's
# test double instead of the writer: events are captured and every
# tracepoint counts as traced while a test says so.
check_LTLIBRARIES += tests/bridge/libcapture.la
tests_bridge_libcapture_la_SOURCES = tests/bridge/capture.h tests/bridge/capture.c

BRIDGE_TEST_LDADD = tests/bridge/libcapture.la src/bridge/libbridge.la src/usdt/libusdt.la \
	src/eventheader/libeventheader.la tests/doubles/libuser_events_double.la $(CHECK_LIBS)
BRIDGE_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
# Per-target flags, so that a program's objects of the library's own
# sources (preload/) get names of their own.
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

# ehs_text_vformat: "%s" as its argument, not a copy.
check_PROGRAMS += tests/bridge/test_text
TESTS += tests/bridge/test_text
tests_bridge_test_text_SOURCES = tests/bridge/test_text.c
tests_bridge_test_text_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_text_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_text_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_text_LDFLAGS = -no-install

# The scratch slots, and the same events when none is free.
check_PROGRAMS += tests/bridge/test_scratch
TESTS += tests/bridge/test_scratch
tests_bridge_test_scratch_SOURCES = tests/bridge/test_scratch.c
tests_bridge_test_scratch_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_scratch_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_scratch_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_scratch_LDFLAGS = -no-install

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
tests_bridge_test_native_SOURCES = tests/bridge/test_native.c tests/bridge/native_expect.h
tests_bridge_test_native_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_native_CFLAGS = $(BRIDGE_TEST_CFLAGS) -pthread
tests_bridge_test_native_LDADD = $(BRIDGE_TEST_LDADD) -lpthread
tests_bridge_test_native_LDFLAGS = -no-install

# Syslog datagrams programs write to /dev/log: RFC 3164 and RFC 5424.
check_PROGRAMS += tests/bridge/test_datagram
TESTS += tests/bridge/test_datagram
tests_bridge_test_datagram_SOURCES = tests/bridge/test_datagram.c
tests_bridge_test_datagram_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_datagram_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_datagram_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_datagram_LDFLAGS = -no-install

# Syslog messages framed on a stream: octet counting and newlines.
# Journald's rules for the lines of a service's output (the pure part:
# bridge/output/line.c, in the product's unsanitized library of its own).
check_PROGRAMS += tests/bridge/test_output_line
TESTS += tests/bridge/test_output_line
tests_bridge_test_output_line_SOURCES = tests/bridge/test_output_line.c src/bridge/output/line.c
tests_bridge_test_output_line_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_output_line_LDADD = $(CHECK_LIBS)

# The service a process runs in, from its cgroup lines (bridge/unit.c's
# pure part; the reading links the product's unit.c with it).
check_PROGRAMS += tests/bridge/test_unit
TESTS += tests/bridge/test_unit
tests_bridge_test_unit_SOURCES = tests/bridge/test_unit.c src/bridge/unit.c
tests_bridge_test_unit_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_unit_LDADD = $(CHECK_LIBS)

check_PROGRAMS += tests/bridge/test_syslog_stream
TESTS += tests/bridge/test_syslog_stream
tests_bridge_test_syslog_stream_SOURCES = tests/bridge/test_syslog_stream.c
tests_bridge_test_syslog_stream_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_syslog_stream_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_syslog_stream_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_syslog_stream_LDFLAGS = -no-install

# Datagrams to journald's native socket, as sd_journal_sendv writes them.
check_PROGRAMS += tests/bridge/test_journal_wire
TESTS += tests/bridge/test_journal_wire
tests_bridge_test_journal_wire_SOURCES = tests/bridge/test_journal_wire.c
tests_bridge_test_journal_wire_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_journal_wire_CFLAGS = $(BRIDGE_TEST_CFLAGS)
tests_bridge_test_journal_wire_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_journal_wire_LDFLAGS = -no-install

# The native API from C++: one source built for C++11 and for the newest
# standard (C++23, or c++2b where the compiler names it so), warnings as
# errors, over the same double; and <ehsyslog.h> compiled by clang++ (and
# $(CXX)) for every standard, with its call sites' statics checked.
if HAVE_CXX
BRIDGE_TEST_CXXFLAGS = -Wall -Wextra -pedantic -Werror $(SANITIZER_CFLAGS) $(CHECK_CFLAGS)
check_PROGRAMS += tests/bridge/test_native_cxx11 tests/bridge/test_native_cxx23
TESTS += tests/bridge/test_native_cxx11 tests/bridge/test_native_cxx23
tests_bridge_test_native_cxx11_SOURCES = tests/bridge/test_native_cxx.cc tests/bridge/native_expect.h
tests_bridge_test_native_cxx11_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_native_cxx11_CXXFLAGS = -std=c++11 $(BRIDGE_TEST_CXXFLAGS)
tests_bridge_test_native_cxx11_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_native_cxx11_LDFLAGS = -no-install
tests_bridge_test_native_cxx23_SOURCES = tests/bridge/test_native_cxx.cc tests/bridge/native_expect.h
tests_bridge_test_native_cxx23_CPPFLAGS = $(BRIDGE_TEST_CPPFLAGS)
tests_bridge_test_native_cxx23_CXXFLAGS = -std=$(CXX_STD_NEW) $(BRIDGE_TEST_CXXFLAGS)
tests_bridge_test_native_cxx23_LDADD = $(BRIDGE_TEST_LDADD)
tests_bridge_test_native_cxx23_LDFLAGS = -no-install
TESTS += tests/bridge/cxx_header.sh
endif
dist_noinst_SCRIPTS += tests/bridge/cxx_header.sh
EXTRA_DIST += tests/bridge/cxx_header.cc
