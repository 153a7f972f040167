/* The bench programs built over the real writer (bench-call-kernel,
 * bench-native-kernel): the tracepoint the library writes a LOG_INFO
 * event of a program that never called openlog to, enabling it in
 * ftrace, and where the writer keeps its descriptor. */
#ifndef EHS_BENCH_KERNEL_TRACEPOINT_H
#define EHS_BENCH_KERNEL_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_TRACEFS "/sys/kernel/tracing"

/* The schema's name (include/ehsyslog/settings.h) for LOG_INFO at
 * facility (LOG_USER, LOG_DAEMON: syslog.h's values), under the
 * provider the library's defaults and the environment give (not a
 * configuration file's).  Exits on failure. */
void bench_info_tracepoint(char *name, size_t cap, int facility);

/* Before the library's first event: when the soft RLIMIT_NOFILE equals
 * the hard one, lowers the soft limit by 64, so that the writer can keep
 * its descriptor beyond it (src/user_events/fdlimit.c) as it does in
 * any process whose hard limit is above its soft one (1024 and 524288
 * under systemd).  Valgrind reports its own soft limit as both: without
 * this, a program under callgrind would count the descriptor checks
 * of a process that has no room above its limit.  Exits on failure. */
void bench_nofile_room(void);

/* Enables the user_events event name in ftrace's top instance, as a
 * tracer would.  Exits on failure. */
void bench_tracefs_enable(const char *name);

/* Registers the event name once more, on a user_events_data of the
 * caller's, the kernel to keep bit 0 of *word; *write_index starts each
 * write of it there.  Returns that descriptor; exits on failure. */
int bench_register_own(const char *name, uint32_t *word, uint32_t *write_index);

/* One line on stderr: every descriptor of this process open on
 * user_events_data but not_this (the program's own, or -1), and the
 * soft and hard RLIMIT_NOFILE as this process sees them (valgrind shows
 * its own soft limit as both). */
void bench_writer_report(int not_this);

#endif
