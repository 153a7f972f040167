# tests/fuzz: libFuzzer targets for the configuration parser, the
# message path, the syslog datagram parser, journald's native datagrams
# and syslog stream framing (the decoder's is in
# tests/eventheader/decode.mk).  Built with clang and plain rules, like
# that one; each runs through
# tests/fuzz/fuzz_run.sh: its regressions, then a bounded fuzzing time.
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	$(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(WARN_CFLAGS)
FUZZ_CONFIG_SRC = tests/fuzz/fuzz_config.c src/bridge/config/config_parse.c
# The bridge, the probe sites, the builder, the decoder that checks its
# output, and the writer's test double (tests/doubles/) instead of the
# writer.
FUZZ_BRIDGE_SRC = tests/fuzz/event_check.c $(filter %.c,$(BRIDGE_SOURCES)) \
	$(filter %.c,$(src_usdt_libusdt_la_SOURCES)) \
	$(filter %.c,$(src_eventheader_libeventheader_la_SOURCES)) \
	$(filter %.c,$(tests_doubles_libuser_events_double_la_SOURCES))
FUZZ_BRIDGE_FLAGS = $(FUZZ_FLAGS) -Wno-format-nonliteral \
	-DEHS_CONFIG_PATH='"/nonexistent/ehsyslog.conf"'
FUZZ_MESSAGE_SRC = tests/fuzz/fuzz_message.c $(FUZZ_BRIDGE_SRC)

# The syslog datagram parser, journald's native datagram parser and
# stream framing, each with the bridge its result goes through (as the
# message path's).
FUZZ_DATAGRAM_SRC = tests/fuzz/fuzz_datagram.c $(FUZZ_BRIDGE_SRC)
FUZZ_JOURNAL_WIRE_SRC = tests/fuzz/fuzz_journal_wire.c $(FUZZ_BRIDGE_SRC)
FUZZ_SYSLOG_STREAM_SRC = tests/fuzz/fuzz_syslog_stream.c $(FUZZ_BRIDGE_SRC)

# ehs_format and glibc's vsnprintf, nothing else.
FUZZ_FORMAT_SRC = tests/fuzz/fuzz_format.c src/bridge/format/format.c src/bridge/format/format_plan.c

# decode's trace.dat reader: our checks, then the system's libtracecmd.
FUZZ_TRACEDAT_SRC = tests/fuzz/fuzz_tracedat.c tests/fuzz/read_touch.c src/cli/decode/trace_dat.c \
	src/cli/decode/trace_dat_check.c src/cli/output/tep_event.c src/traceevent/payload.c \
	src/cli/decode/perf_unzip.c src/traceevent/uprobe_record.c src/traceevent/base64.c \
	src/traceevent/uprobe_group.c src/eventheader/names.c
FUZZ_TRACEDAT_LIBS = $(LIBTRACECMD_LIBS) $(LIBTRACEEVENT_LIBS) $(LIBZSTD_LIBS)

# decode's perf.data reader and its zstd stream (libtraceevent only
# because uprobe_record.c also reads its records).
FUZZ_PERFDATA_SRC = tests/fuzz/fuzz_perfdata.c tests/fuzz/read_touch.c src/cli/decode/perf_data.c \
	src/cli/decode/perf_unzip.c src/traceevent/uprobe_record.c src/traceevent/base64.c \
	src/traceevent/uprobe_group.c src/eventheader/names.c

# Every target's seeds and regressions (a folder appears in regress/ once
# a crash has been kept there).
EXTRA_DIST += tests/fuzz/fuzz_config.c tests/fuzz/fuzz_message.c tests/fuzz/fuzz_format.c \
	tests/fuzz/fuzz_tracedat.c tests/fuzz/fuzz_perfdata.c tests/fuzz/fuzz_datagram.c tests/fuzz/fuzz_journal_wire.c \
	tests/fuzz/fuzz_syslog_stream.c \
	tests/fuzz/event_check.h tests/fuzz/event_check.c tests/fuzz/perfdata_shrink.py \
	tests/fuzz/read_touch.h tests/fuzz/read_touch.c \
	tests/fuzz/corpus tests/fuzz/regress
dist_noinst_SCRIPTS += tests/fuzz/fuzz_run.sh tests/fuzz/fuzz_config.sh \
	tests/fuzz/fuzz_message.sh tests/fuzz/fuzz_format.sh tests/fuzz/fuzz_tracedat.sh \
	tests/fuzz/fuzz_perfdata.sh tests/fuzz/fuzz_datagram.sh tests/fuzz/fuzz_journal_wire.sh tests/fuzz/fuzz_syslog_stream.sh
TESTS += tests/fuzz/fuzz_config.sh tests/fuzz/fuzz_message.sh tests/fuzz/fuzz_format.sh \
	tests/fuzz/fuzz_tracedat.sh tests/fuzz/fuzz_perfdata.sh tests/fuzz/fuzz_datagram.sh \
	tests/fuzz/fuzz_journal_wire.sh tests/fuzz/fuzz_syslog_stream.sh
CLEANFILES += tests/fuzz/fuzz_config tests/fuzz/fuzz_message tests/fuzz/fuzz_format \
	tests/fuzz/fuzz_tracedat tests/fuzz/fuzz_perfdata tests/fuzz/fuzz_datagram tests/fuzz/fuzz_journal_wire \
	tests/fuzz/fuzz_syslog_stream
if HAVE_FUZZ
tests/fuzz/fuzz_config: $(FUZZ_CONFIG_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^
tests/fuzz/fuzz_message: $(FUZZ_MESSAGE_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_BRIDGE_FLAGS) -o $@ $^
tests/fuzz/fuzz_datagram: $(FUZZ_DATAGRAM_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_BRIDGE_FLAGS) -o $@ $^
tests/fuzz/fuzz_journal_wire: $(FUZZ_JOURNAL_WIRE_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_BRIDGE_FLAGS) -o $@ $^
tests/fuzz/fuzz_syslog_stream: $(FUZZ_SYSLOG_STREAM_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_BRIDGE_FLAGS) -o $@ $^
tests/fuzz/fuzz_format: $(FUZZ_FORMAT_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) -Wno-format-nonliteral -o $@ $^
tests/fuzz/fuzz_tracedat: $(FUZZ_TRACEDAT_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) $(LIBTRACECMD_CFLAGS) $(LIBTRACEEVENT_CFLAGS) \
		$(LIBZSTD_CFLAGS) -o $@ $^ $(FUZZ_TRACEDAT_LIBS)
tests/fuzz/fuzz_perfdata: $(FUZZ_PERFDATA_SRC:%=$(srcdir)/%)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_FLAGS) $(LIBTRACEEVENT_CFLAGS) $(LIBZSTD_CFLAGS) -o $@ $^ \
		$(LIBTRACEEVENT_LIBS) $(LIBZSTD_LIBS)
tests/fuzz/fuzz_config.log tests/fuzz/fuzz_config.sh.log: tests/fuzz/fuzz_config
tests/fuzz/fuzz_message.log tests/fuzz/fuzz_message.sh.log: tests/fuzz/fuzz_message
tests/fuzz/fuzz_format.log tests/fuzz/fuzz_format.sh.log: tests/fuzz/fuzz_format
tests/fuzz/fuzz_tracedat.log tests/fuzz/fuzz_tracedat.sh.log: tests/fuzz/fuzz_tracedat
tests/fuzz/fuzz_perfdata.log tests/fuzz/fuzz_perfdata.sh.log: tests/fuzz/fuzz_perfdata
tests/fuzz/fuzz_datagram.log tests/fuzz/fuzz_datagram.sh.log: tests/fuzz/fuzz_datagram
tests/fuzz/fuzz_journal_wire.log tests/fuzz/fuzz_journal_wire.sh.log: tests/fuzz/fuzz_journal_wire
tests/fuzz/fuzz_syslog_stream.log tests/fuzz/fuzz_syslog_stream.sh.log: tests/fuzz/fuzz_syslog_stream
endif
