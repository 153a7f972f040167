# tests/cli/read.mk: tests of ehsyslog decode and tail (see
# src/cli/decode/local.mk and src/cli/tail/local.mk).
check_PROGRAMS += tests/cli/test_read_perf_data
tests_cli_test_read_perf_data_SOURCES = tests/cli/test_read_perf_data.c \
	src/cli/decode/perf_data.c src/cli/decode/perf_data.h src/cli/output/output.h \
	src/cli/decode/perf_unzip.c src/cli/decode/perf_unzip.h \
	src/traceevent/uprobe_record.c src/traceevent/base64.c src/traceevent/uprobe_group.c \
	src/cli/names.c src/cli/provider.c src/cli/util.c
tests_cli_test_read_perf_data_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBZSTD_CFLAGS) \
	$(LIBTRACEEVENT_CFLAGS)
# names.c: the bridge's facility keywords and severity levels.
tests_cli_test_read_perf_data_LDADD = $(CHECK_LIBS) $(LIBZSTD_LIBS) $(LIBTRACEEVENT_LIBS) \
	src/bridge/libbridge.la src/usdt/libusdt.la src/user_events/libuserevents.la \
	src/eventheader/libeventheader.la

# The output stage's joining of split messages.
check_PROGRAMS += tests/cli/test_reassemble
tests_cli_test_reassemble_SOURCES = tests/cli/test_reassemble.c \
	src/cli/output/output.c src/cli/output/output.h src/cli/output/print.h \
	src/cli/output/reassemble.c src/cli/output/reassemble.h src/cli/output/text.c \
	src/cli/output/fields.c src/cli/output/fields.h src/cli/output/filter.c src/cli/output/filter.h \
	src/cli/names.c src/cli/provider.c src/cli/util.c
tests_cli_test_reassemble_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBBSD_CFLAGS)
tests_cli_test_reassemble_LDADD = $(CHECK_LIBS) $(LIBBSD_LIBS) \
	src/bridge/libbridge.la src/usdt/libusdt.la src/user_events/libuserevents.la \
	src/eventheader/libeventheader.la

# Cuts a file as decode maps it (decode_others_file.sh); -rpath only
# makes libtool build it shared.
check_LTLIBRARIES += tests/cli/libshrink_on_map.la
tests_cli_libshrink_on_map_la_SOURCES = tests/cli/shrink_on_map.c
tests_cli_libshrink_on_map_la_CFLAGS = $(WARN_CFLAGS)
tests_cli_libshrink_on_map_la_LDFLAGS = -module -avoid-version -rpath /nowhere

TESTS += tests/cli/test_read_perf_data tests/cli/test_reassemble tests/cli/read_cli.sh tests/cli/read_conformance.sh \
	tests/cli/decode_others_file.sh
dist_noinst_SCRIPTS += tests/cli/read_cli.sh tests/cli/read_conformance.sh \
	tests/cli/decode_others_file.sh \
	tests/cli/read_compare.py
# The trace.dat files read_cli.sh decodes are the fuzz seeds and crashers
# (tests/fuzz/corpus/tracedat, regress/tracedat), shipped with tests/fuzz.
EXTRA_DIST += tests/cli/libtracecmd.vgsupp tests/fuzz/tracedat.supp tests/fuzz/tracedat_shrink.py
