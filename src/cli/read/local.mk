# src/cli/read: `ehsyslog decode`, recorded events (perf.data, trace.dat)
# to text or JSON; the output stage that tail shares.  The program is
# defined in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/read/cmd_decode.c \
	src/cli/read/output.c \
	src/cli/read/output.h \
	src/cli/read/lost.c \
	src/cli/read/print.h \
	src/cli/read/text.c \
	src/cli/read/filter.c \
	src/cli/read/filter.h \
	src/cli/read/fields.c \
	src/cli/read/fields.h \
	src/cli/read/reassemble.c \
	src/cli/read/reassemble.h \
	src/cli/read/perf_data.c \
	src/cli/read/perf_data.h \
	src/cli/read/perf_unzip.c \
	src/cli/read/perf_unzip.h \
	src/cli/read/tep_event.c \
	src/cli/read/tep_event.h \
	src/cli/read/trace_dat.c \
	src/cli/read/trace_dat.h \
	src/cli/read/trace_dat_check.c \
	src/cli/read/trace_dat_check.h \
	src/cli/read/span.h \
	src/traceevent/payload.c \
	src/traceevent/payload.h
