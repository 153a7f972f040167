# src/cli/export/queue: the records `ehsyslog export` holds until the
# collector takes them, and their copy on disk (the spool) that a later
# export sends.  The program is defined in src/cli/local.mk.
ehsyslog_SOURCES += \
	src/cli/export/queue/queue.c src/cli/export/queue/queue.h \
	src/cli/export/queue/spool.c src/cli/export/queue/spool.h \
	src/cli/export/queue/spool_frame.c src/cli/export/queue/spool_frame.h \
	src/cli/export/queue/spool_replay.c src/cli/export/queue/spool_replay.h \
	src/cli/export/queue/spool_file.c src/cli/export/queue/spool_file.h
