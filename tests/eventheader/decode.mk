# tests/eventheader: the decoder's tests (see Makefile.am).
#
check_PROGRAMS += tests/eventheader/test_decode tests/eventheader/test_json_string \
	tests/eventheader/decode_dump
tests_eventheader_test_decode_SOURCES = tests/eventheader/test_decode.c
tests_eventheader_test_decode_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_eventheader_test_decode_LDADD = src/eventheader/libeventheader.la $(CHECK_LIBS)
tests_eventheader_test_json_string_SOURCES = tests/eventheader/test_json_string.c
tests_eventheader_test_json_string_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_eventheader_test_json_string_LDADD = src/eventheader/libeventheader.la $(CHECK_LIBS)
tests_eventheader_decode_dump_SOURCES = tests/eventheader/decode_dump.c
tests_eventheader_decode_dump_LDADD = src/eventheader/libeventheader.la

TESTS += tests/eventheader/test_decode tests/eventheader/test_json_string \
	tests/eventheader/decode_conformance.sh
dist_noinst_SCRIPTS += tests/eventheader/decode_conformance.sh \
	tests/eventheader/decode_conformance.py tests/eventheader/decode_valgrind.sh

# Valgrind and ASan do not mix: with --enable-sanitizers ASan does this job.
if !SANITIZERS
TESTS += tests/eventheader/decode_valgrind.sh
endif

# libFuzzer target: clang only, built with a plain rule, not libtool.
FUZZ_DECODE_INPUTS = tests/fuzz/fuzz_decode.c $(EH_DECODE_SOURCES) \
	src/eventheader/names.c src/eventheader/errors.c
EXTRA_DIST += $(FUZZ_DECODE_INPUTS)
dist_noinst_SCRIPTS += tests/fuzz/fuzz_decode.sh
TESTS += tests/fuzz/fuzz_decode.sh
CLEANFILES += tests/fuzz/fuzz_decode
if HAVE_FUZZ
tests/fuzz/fuzz_decode: $(FUZZ_DECODE_INPUTS:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
		$(WARN_CFLAGS) -o $@ $(filter %.c,$^)
# The log is named with or without .sh depending on TEST_EXTENSIONS.
tests/fuzz/fuzz_decode.log tests/fuzz/fuzz_decode.sh.log: tests/fuzz/fuzz_decode
endif
