# src/cli/output: the output stage decode, tail and export share: events
# to text or JSON, the filters, split messages joined, and a libtraceevent
# record as an event.  The program is defined in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/output/output.c \
	src/cli/output/output.h \
	src/cli/output/lost.c \
	src/cli/output/print.h \
	src/cli/output/text.c \
	src/cli/output/filter.c \
	src/cli/output/filter.h \
	src/cli/output/fields.c \
	src/cli/output/fields.h \
	src/cli/output/reassemble.c \
	src/cli/output/reassemble.h \
	src/cli/output/tep_event.c \
	src/cli/output/tep_event.h \
	src/traceevent/payload.c \
	src/traceevent/payload.h
