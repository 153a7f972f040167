# tests/eventheader: the builder, tracepoint names and error strings.
# Each Check program links the convenience library directly (static), so
# no libtool wrapper ever relinks.
EH_BUILDER_TESTS = \
	tests/eventheader/meta_test \
	tests/eventheader/payload_test \
	tests/eventheader/event_test \
	tests/eventheader/names_test \
	tests/eventheader/golden_test
check_PROGRAMS += $(EH_BUILDER_TESTS)
TESTS += $(EH_BUILDER_TESTS) tests/eventheader/builder-valgrind.sh
EXTRA_DIST += tests/eventheader/suite_main.h tests/eventheader/builder-valgrind.sh

EH_BUILDER_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
EH_BUILDER_TEST_LDADD = src/eventheader/libeventheader.la $(CHECK_LIBS)

tests_eventheader_meta_test_SOURCES = tests/eventheader/meta_test.c
tests_eventheader_meta_test_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_meta_test_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_meta_test_LDFLAGS = -no-install

tests_eventheader_payload_test_SOURCES = tests/eventheader/payload_test.c
tests_eventheader_payload_test_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_payload_test_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_payload_test_LDFLAGS = -no-install

tests_eventheader_event_test_SOURCES = tests/eventheader/event_test.c
tests_eventheader_event_test_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_event_test_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_event_test_LDFLAGS = -no-install

tests_eventheader_names_test_SOURCES = tests/eventheader/names_test.c
tests_eventheader_names_test_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_names_test_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_names_test_LDFLAGS = -no-install

tests_eventheader_golden_test_SOURCES = tests/eventheader/golden_test.c
tests_eventheader_golden_test_CFLAGS = $(EH_BUILDER_TEST_CFLAGS)
tests_eventheader_golden_test_LDADD = $(EH_BUILDER_TEST_LDADD)
tests_eventheader_golden_test_LDFLAGS = -no-install
