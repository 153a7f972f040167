# tests/export: ehsyslog export (src/cli/export/ and its local.mk).  The unit test
# takes the pure parts; kernel_export*.sh run export in the guest against
# otlp_receiver.py, which decodes with the vendored proto/.
check_PROGRAMS += tests/export/test_export
tests_export_test_export_SOURCES = tests/export/test_export.c \
	src/cli/export/otlp/severity.c src/cli/export/otlp/record.c \
	src/cli/export/otlp/request.c src/cli/export/otlp/wire.c \
	src/cli/export/otlp/json.c \
	src/cli/export/otlp/response.c \
	src/cli/export/queue/queue.c src/cli/export/queue/spool.c \
	src/cli/export/queue/spool_frame.c src/cli/export/queue/spool_replay.c \
	src/cli/export/queue/spool_file.c \
	src/cli/export/backoff.c src/cli/export/gzip.c src/cli/tail/thread_process.c \
	src/cli/export/secret_file.c src/cli/export/batch.c src/cli/names.c
tests_export_test_export_CPPFLAGS = $(AM_CPPFLAGS) -I$(builddir)/otlp
tests_export_test_export_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS)
tests_export_test_export_LDADD = libotlp.la src/bridge/libbridge.la src/usdt/libusdt.la src/eventheader/libeventheader.la \
	$(CHECK_LIBS) $(PROTOBUF_C_LIBS) $(ZLIB_LIBS)

# The state file export publishes for status.
check_PROGRAMS += tests/export/test_state
tests_export_test_state_SOURCES = tests/export/test_state.c src/cli/export/state.c \
	src/cli/process_alive.c src/cli/reader_alive.c src/cli/read_file.c
tests_export_test_state_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_export_test_state_LDADD = $(CHECK_LIBS)

# The queue's copy on disk.
check_PROGRAMS += tests/export/test_spool
tests_export_test_spool_SOURCES = tests/export/test_spool.c \
	src/cli/export/queue/spool.c src/cli/export/queue/spool_frame.c \
	src/cli/export/queue/spool_replay.c src/cli/export/queue/spool_file.c \
	src/cli/export/queue/queue.c
tests_export_test_spool_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(ZLIB_CFLAGS)
tests_export_test_spool_LDADD = $(CHECK_LIBS) $(ZLIB_LIBS)

# The receiver tests/export/bench_export.py counts export's records with
# (a check program, as make bench needs it built); otlp_count.sh checks
# its counting and answers on this machine.
check_PROGRAMS += tests/export/otlp_count
tests_export_otlp_count_SOURCES = tests/export/otlp_count.c

# Each kernel_export*.sh boots a guest of its own (export_lib.sh).
EXPORT_KERNEL_TESTS = tests/export/kernel_export.sh tests/export/kernel_export_tls.sh \
	tests/export/kernel_export_wire.sh tests/export/kernel_export_config.sh
# uprobe_export.sh: export through the uprobe transport on this machine's
# kernel (tests/cli/uprobe.mk says how); uprobe_export_answers.sh the same
# way, against collectors that refuse, throttle and misbehave;
# uprobe_export_slow.sh, a load read in full while a slow collector
# answers; uprobe_export_spool.sh, the queue on disk across a SIGKILL, a
# restart and damage; uprobe_export_queue_dir.sh, a queue directory or
# files in it that another user could have made; uprobe_export_copies.sh,
# the copies of the library running programs map.
# header_file.sh: the header file's owner and mode, before any tracing.
TESTS += tests/export/test_export tests/export/test_state tests/export/test_spool $(EXPORT_KERNEL_TESTS) \
	tests/export/uprobe_export.sh tests/export/uprobe_export_answers.sh \
	tests/export/uprobe_export_slow.sh tests/export/uprobe_export_spool.sh \
	tests/export/uprobe_export_queue_dir.sh tests/export/uprobe_export_copies.sh \
	tests/export/unit_verify.sh tests/export/header_file.sh tests/export/otlp_count.sh
dist_noinst_SCRIPTS += $(EXPORT_KERNEL_TESTS) tests/export/uprobe_export.sh tests/export/header_file.sh \
	tests/export/uprobe_export_answers.sh tests/export/uprobe_export_slow.sh \
	tests/export/uprobe_export_spool.sh tests/export/uprobe_export_queue_dir.sh \
	tests/export/uprobe_export_copies.sh tests/export/uprobe_export_lib.sh \
	tests/export/export_lib.sh tests/export/export_helpers.sh tests/export/otlp_receiver.py \
	tests/export/unit_verify.sh tests/export/bench_export.py tests/export/otlp_count.sh
# The unit the Debian package ships, checked by unit_verify.sh.
EXTRA_DIST += debian/ehsyslog.ehsyslog-export.service
