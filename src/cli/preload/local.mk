# src/cli/preload: the subcommands that put the library into programs:
# run (one program) and preload (the machine, or systemd services).  The
# program is defined in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/preload/cmd_run.c src/cli/preload/elf_library.c src/cli/preload/elf_library.h \
	src/cli/preload/cmd_preload.c \
	src/cli/preload/preload_list.c src/cli/preload/preload_list.h \
	src/cli/preload/preload_file.c src/cli/preload/preload_file.h \
	src/cli/preload/preload_lib.c src/cli/preload/preload_lib.h \
	src/cli/preload/preload_unit.c src/cli/preload/preload_unit.h \
	src/cli/preload/unit_name.c src/cli/preload/unit_name.h \
	src/cli/preload/unit_env.c src/cli/preload/unit_env.h
