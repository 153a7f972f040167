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
tests_cli_libuprobe_tiny_la_LDFLAGS = -module -avoid-version -rpath /nowhere

CLI_UPROBE_TESTS = tests/cli/uprobe_define.sh tests/cli/uprobe_tail.sh \
	tests/cli/uprobe_decode.sh
TESTS += $(CLI_UPROBE_TESTS)
EXTRA_DIST += $(CLI_UPROBE_TESTS) tests/cli/uprobe_lib.sh
