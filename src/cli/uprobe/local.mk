# src/cli/uprobe: the uprobe transport's tool side: the library's USDT
# probes (.note.stapsdt, through libelf) as uprobe events in tracefs,
# which register, tail, export, cleanup and status manage, and their
# records turned back into EventHeader events for the readers.
ehsyslog_SOURCES += \
	src/cli/uprobe/usdt_note.c src/cli/uprobe/usdt_note.h \
	src/cli/uprobe/fetch_arg.c src/cli/uprobe/fetch_arg.h \
	src/cli/uprobe/uprobe_events.c src/cli/uprobe/uprobe_events.h \
	src/cli/uprobe/ehs_uprobes.c src/cli/uprobe/ehs_uprobes.h \
	src/cli/uprobe/owned.c src/cli/uprobe/owned.h \
	src/cli/uprobe/group.c src/cli/uprobe/group.h \
	src/cli/uprobe/base64.c src/cli/uprobe/base64.h \
	src/cli/uprobe/record.c src/cli/uprobe/record.h
ehsyslog_CFLAGS += $(LIBELF_CFLAGS)
ehsyslog_LDADD += $(LIBELF_LIBS)
