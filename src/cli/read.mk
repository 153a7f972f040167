# src/cli/read.mk: the reading half of the ehsyslog tool (decode, tail).
# The program itself (bin_PROGRAMS, main.c) is defined in src/cli/local.mk;
# this adds the sources.

ehsyslog_SOURCES += \
	src/cli/cmd_decode.c \
	src/cli/cmd_tail.c \
	src/cli/live.c \
	src/cli/live.h \
	src/cli/output.c \
	src/cli/output.h \
	src/cli/perf_data.c \
	src/cli/perf_data.h \
	src/cli/perf_unzip.c \
	src/cli/perf_unzip.h \
	src/cli/tep_event.c \
	src/cli/tep_event.h \
	src/cli/trace_dat.c \
	src/cli/trace_dat.h \
	src/cli/trace_dat_check.c \
	src/cli/trace_dat_check.h \
	src/cli/span.h \
	src/traceevent/payload.c \
	src/traceevent/payload.h
