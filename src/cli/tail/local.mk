# src/cli/tail: `ehsyslog tail`, events as programs log them, through a
# private tracefs instance (live.c, which export reads through too, and
# thread_process.c, the process of a thread the instance recorded),
# printed by src/cli/output.
ehsyslog_SOURCES += \
	src/cli/tail/cmd_tail.c \
	src/cli/tail/live.c src/cli/tail/live.h \
	src/cli/tail/follow.c src/cli/tail/follow.h \
	src/cli/tail/hold.c src/cli/tail/hold.h \
	src/cli/tail/thread_process.c src/cli/tail/thread_process.h
