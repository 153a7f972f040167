# tests/cli: the ehsyslog tool's admin subcommands (see Makefile.am)
CLI_ADMIN_TESTS = \
	tests/cli/admin_dispatch.sh tests/cli/admin_run.sh \
	tests/cli/admin_preload.sh tests/cli/admin_status.sh \
	tests/cli/admin_config.sh
TESTS += $(CLI_ADMIN_TESTS)
EXTRA_DIST += $(CLI_ADMIN_TESTS) tests/cli/admin_lib.sh
