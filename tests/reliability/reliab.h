/* SPDX-License-Identifier: MIT */
/* Shared by the reliability test program's files (reliab_ktest.c). */
#ifndef RELIAB_H
#define RELIAB_H

#include <check.h>
#include <sys/types.h>

#include "lib/kernel_files.h"

/* The default provider's tracepoints at LOG_INFO, facility LOCALn:
 * keyword 1 << (16 + n). */
#define TP_LOCAL0 "Syslog_L4K10000"
#define TP_LOCAL1 "Syslog_L4K20000"
#define TP_LOCAL2 "Syslog_L4K40000"
#define TP_LOCAL3 "Syslog_L4K80000"
#define TP_LOCAL4 "Syslog_L4K100000"
#define TP_LOCAL5 "Syslog_L4K200000"
#define TP_LOCAL6 "Syslog_L4K400000"
#define TP_LOCAL7 "Syslog_L4K800000"

extern const char *self_exe;

void report(const char *test, const char *load, const char *faults,
	    const char *bad, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void reg(int pri);
/* Sets RLIMIT_NOFILE before the first log: soft < hard puts the writer's
 * descriptor at the soft limit, out of the program's reach; soft == hard
 * below it, where each traced write checks it. */
void set_nofile(unsigned long soft, unsigned long hard);
pid_t run_subject(int *status, const char *out, char *const argv[]);
off_t file_size(const char *path);

/* argv: the subject's name, then its arguments.  Returns its exit code. */
int subject_main(int argc, char **argv);
/* The subject of retry.c: argv as subject_main's. */
int stuck_subject(int argc, char **argv);

Suite *load_suite(void);
Suite *concurrency_suite(void);
Suite *faults_suite(void);
Suite *input_suite(void);
Suite *security_suite(void);
Suite *retry_suite(void);

#endif
