# src/cli/live: `ehsyslog tail`, events as programs log them, through a
# private tracefs instance.  It prints through src/cli/read's output.
ehsyslog_SOURCES += \
	src/cli/live/cmd_tail.c \
	src/cli/live/live.c src/cli/live/live.h
