# src/cli/admin: the subcommands that look after the machine's side of
# the library: register, status, config, cleanup.  The program is
# defined in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/admin/cmd_register.c \
	src/cli/admin/cmd_status.c src/cli/admin/cmd_config.c \
	src/cli/admin/status_uprobes.c src/cli/admin/status_uprobes.h \
	src/cli/admin/cmd_cleanup.c \
	src/cli/admin/register_uprobes.c src/cli/admin/register_uprobes.h \
	src/cli/admin/settings.c src/cli/admin/settings.h
