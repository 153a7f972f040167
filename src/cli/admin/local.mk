# src/cli/admin: the subcommands that set the library up and look after
# it (run, preload, register, status, config, cleanup).  The program is
# defined in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/admin/cmd_run.c \
	src/cli/admin/cmd_preload.c src/cli/admin/cmd_register.c \
	src/cli/admin/cmd_status.c src/cli/admin/cmd_config.c \
	src/cli/admin/status_uprobes.c src/cli/admin/status_uprobes.h \
	src/cli/admin/cmd_cleanup.c \
	src/cli/admin/register_uprobes.c src/cli/admin/register_uprobes.h \
	src/cli/admin/settings.c src/cli/admin/settings.h \
	src/cli/admin/preload_list.c src/cli/admin/preload_list.h \
	src/cli/admin/preload_file.c src/cli/admin/preload_file.h \
	src/cli/admin/preload_lib.c src/cli/admin/preload_lib.h \
	src/cli/admin/preload_unit.c src/cli/admin/preload_unit.h \
	src/cli/admin/unit_name.c src/cli/admin/unit_name.h \
	src/cli/admin/unit_env.c src/cli/admin/unit_env.h
