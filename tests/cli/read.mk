# tests/cli/read.mk: tests of ehsyslog decode and tail (see
# src/cli/read/local.mk and src/cli/live/local.mk).
check_PROGRAMS += tests/cli/test_read_perf_data
tests_cli_test_read_perf_data_SOURCES = tests/cli/test_read_perf_data.c \
	src/cli/read/perf_data.c src/cli/read/perf_data.h src/cli/read/output.h \
	src/cli/read/perf_unzip.c src/cli/read/perf_unzip.h \
	src/traceevent/uprobe_record.c src/traceevent/base64.c src/traceevent/uprobe_group.c \
	src/cli/names.c
tests_cli_test_read_perf_data_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBZSTD_CFLAGS) \
	$(LIBTRACEEVENT_CFLAGS)
# names.c: the bridge's facility keywords and severity levels.
tests_cli_test_read_perf_data_LDADD = $(CHECK_LIBS) $(LIBZSTD_LIBS) $(LIBTRACEEVENT_LIBS) \
	src/bridge/libbridge.la src/usdt/libusdt.la src/user_events/libuserevents.la \
	src/eventheader/libeventheader.la

TESTS += tests/cli/test_read_perf_data tests/cli/read_cli.sh tests/cli/read_conformance.sh
dist_noinst_SCRIPTS += tests/cli/read_cli.sh tests/cli/read_conformance.sh \
	tests/cli/read_compare.py
# The trace.dat files read_cli.sh decodes are the fuzz seeds and crashers
# (tests/fuzz/corpus/tracedat, regress/tracedat), shipped with tests/fuzz.
EXTRA_DIST += tests/cli/libtracecmd.vgsupp tests/fuzz/tracedat.supp tests/fuzz/tracedat_shrink.py
