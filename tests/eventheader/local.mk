# tests/eventheader: the builder, tracepoint names and error strings.
# Each Check program links the convenience library directly (static), so
# no libtool wrapper ever relinks.
EH_BUILDER_TESTS = \
	tests/eventheader/test_meta \
	tests/eventheader/test_payload \
	tests/eventheader/test_event \
	tests/eventheader/test_names \
	tests/eventheader/test_golden
check_PROGRAMS += $(EH_BUILDER_TESTS)
TESTS += $(EH_BUILDER_TESTS) tests/eventheader/builder_valgrind.sh
EXTRA_DIST += tests/eventheader/suite_main.h tests/eventheader/builder_valgrind.sh

EH_BUILDER_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
EH_BUILDER_TEST_LDADD = src/eventheader/libeventheader.la $(CHECK_LIBS)

tests_eventheader_test_meta_SOURCES = tests/eventheader/test_meta.c
tests_eventheader_test_meta_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_test_meta_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_test_meta_LDFLAGS = -no-install

tests_eventheader_test_payload_SOURCES = tests/eventheader/test_payload.c
tests_eventheader_test_payload_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_test_payload_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_test_payload_LDFLAGS = -no-install

tests_eventheader_test_event_SOURCES = tests/eventheader/test_event.c
tests_eventheader_test_event_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_test_event_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_test_event_LDFLAGS = -no-install

tests_eventheader_test_names_SOURCES = tests/eventheader/test_names.c
tests_eventheader_test_names_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_test_names_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_test_names_LDFLAGS = -no-install

tests_eventheader_test_golden_SOURCES = tests/eventheader/test_golden.c
tests_eventheader_test_golden_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_test_golden_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_test_golden_LDFLAGS = -no-install
