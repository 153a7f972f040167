# src/cli/uprobe: the uprobe transport's tool side: the library's USDT
# probes (.note.stapsdt, through libelf) as uprobe events in tracefs,
# which register, tail, export, cleanup and status manage, and their
# records turned back into EventHeader events for the readers.
ehsyslog_SOURCES += \
	src/cli/uprobe/usdt_note.c src/cli/uprobe/usdt_note.h \
	src/cli/uprobe/fetch_arg.c src/cli/uprobe/fetch_arg.h \
	src/cli/uprobe/uprobe_events.c src/cli/uprobe/uprobe_events.h \
	src/cli/uprobe/ehs_uprobes.c src/cli/uprobe/ehs_uprobes.h \
	src/cli/uprobe/nop5.c src/cli/uprobe/nop5.h \
	src/cli/uprobe/enabled.c src/cli/uprobe/enabled.h \
	src/cli/uprobe/rearm.c src/cli/uprobe/rearm.h \
	src/cli/uprobe/copies.c src/cli/uprobe/copies.h \
	src/cli/uprobe/owned.c src/cli/uprobe/owned.h \
	src/traceevent/uprobe_group.c src/traceevent/uprobe_group.h \
	src/traceevent/base64.c src/traceevent/base64.h \
	src/traceevent/uprobe_record.c src/traceevent/uprobe_record.h
ehsyslog_CFLAGS += $(LIBELF_CFLAGS)
ehsyslog_LDADD += $(LIBELF_LIBS)
