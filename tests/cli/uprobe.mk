# tests/cli/uprobe_*: the uprobe transport's tool side on this machine's
# own kernel (uprobe events, and no user_events needed), each in a private
# mount namespace with a fresh tracefs (scripts/tracefs-ns).  uprobe
# definitions are kernel-wide: each test defines its events on its own
# copy of the library (group ehsyslog_HASH) and removes them, also when
# it fails.
# The USDT probe contract alone, compiled unoptimised (memory operands):
# tests/cli/.libs/libuprobe_tiny.so; -rpath only makes libtool build it
# shared.
check_LTLIBRARIES += tests/cli/libuprobe_tiny.la
tests_cli_libuprobe_tiny_la_SOURCES = tests/cli/uprobe_tiny.c
# Loaded by python3's ctypes, which has no sanitizer runtime: built
# without one (its own CFLAGS and LDFLAGS replace the AM_ ones).
tests_cli_libuprobe_tiny_la_CFLAGS = $(WARN_CFLAGS)
tests_cli_libuprobe_tiny_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# The pure parts: note arguments, group names, base64, records.
check_PROGRAMS += tests/cli/test_uprobe_args
tests_cli_test_uprobe_args_SOURCES = tests/cli/test_uprobe_args.c \
	src/cli/uprobe/fetch_arg.c src/traceevent/uprobe_group.c src/traceevent/base64.c \
	src/traceevent/uprobe_record.c src/cli/names.c
tests_cli_test_uprobe_args_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
# names.c: the bridge's facility keywords and severity levels.
tests_cli_test_uprobe_args_LDADD = $(CHECK_LIBS) $(LIBTRACEEVENT_LIBS) \
	src/bridge/libbridge.la src/usdt/libusdt.la src/user_events/libuserevents.la \
	src/eventheader/libeventheader.la
TESTS += tests/cli/test_uprobe_args

CLI_UPROBE_TESTS = tests/cli/uprobe_define.sh tests/cli/uprobe_tail.sh tests/cli/uprobe_ns.sh \
	tests/cli/uprobe_decode.sh tests/cli/uprobe_plugin.sh tests/cli/uprobe_quickstart.sh \
	tests/cli/uprobe_config_late.sh tests/cli/uprobe_upgrade.sh \
	tests/cli/uprobe_nop5.sh tests/cli/uprobe_anyone.sh tests/cli/uprobe_copies.sh \
	tests/cli/uprobe_order.sh tests/cli/uprobe_journal_stream.sh tests/cli/uprobe_journal_unit.sh \
	tests/cli/uprobe_stream_tracing.sh
TESTS += $(CLI_UPROBE_TESTS)
EXTRA_DIST += $(CLI_UPROBE_TESTS) tests/cli/uprobe_lib.sh tests/cli/ns_readers.sh \
	tests/cli/journal_lib.sh tests/cli/journal_launch.py tests/cli/journal_service.py
# Lines on standard output and error from two threads and a signal
# handler, for the output stream tests.
check_PROGRAMS += tests/cli/output_writer
tests_cli_output_writer_SOURCES = tests/cli/output_writer.c
tests_cli_output_writer_CFLAGS = $(AM_CFLAGS) -pthread
tests_cli_output_writer_LDADD = -lpthread
# A C service's stdio, fortified (printf as __printf_chk) and plain.
check_PROGRAMS += tests/cli/output_stdio tests/cli/output_stdio_chk
tests_cli_output_stdio_SOURCES = tests/cli/output_stdio.c
tests_cli_output_stdio_CFLAGS = $(AM_CFLAGS) -U_FORTIFY_SOURCE -fno-builtin
tests_cli_output_stdio_chk_SOURCES = tests/cli/output_stdio.c
tests_cli_output_stdio_chk_CFLAGS = $(AM_CFLAGS) -O2 -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
