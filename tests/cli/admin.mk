# tests/cli: the ehsyslog tool's dispatcher and admin subcommands (see
# Makefile.am).  Shell scripts run against the built ./ehsyslog; they use
# $(top_srcdir) and $(top_builddir) from TESTS_ENVIRONMENT.
CLI_ADMIN_TESTS = \
	tests/cli/admin_dispatch.sh tests/cli/admin_run.sh \
	tests/cli/admin_preload.sh tests/cli/admin_unit.sh \
	tests/cli/admin_status.sh \
	tests/cli/admin_config.sh tests/cli/admin_man.sh
TESTS += $(CLI_ADMIN_TESTS)
EXTRA_DIST += $(CLI_ADMIN_TESTS) tests/cli/admin_lib.sh
