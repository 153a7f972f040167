/* SPDX-License-Identifier: MIT */
/*
 * libsystemd's journal calls that preload/journal.c interposes, declared
 * here as sd-journal.h has them: the library neither links libsystemd
 * nor needs its headers to build.
 */
#ifndef EHS_PRELOAD_SD_JOURNAL_H
#define EHS_PRELOAD_SD_JOURNAL_H

#include <stdarg.h>

struct iovec;

int sd_journal_print(int priority, const char *format, ...);
int sd_journal_printv(int priority, const char *format, va_list ap);
int sd_journal_send(const char *format, ...);
int sd_journal_sendv(const struct iovec *iov, int n);
int sd_journal_perror(const char *message);
int sd_journal_print_with_location(int priority, const char *file, const char *line,
				   const char *func, const char *format, ...);
int sd_journal_printv_with_location(int priority, const char *file, const char *line,
				    const char *func, const char *format, va_list ap);
int sd_journal_send_with_location(const char *file, const char *line, const char *func,
				  const char *format, ...);
int sd_journal_sendv_with_location(const char *file, const char *line, const char *func,
				   const struct iovec *iov, int n);
int sd_journal_perror_with_location(const char *file, const char *line, const char *func,
				    const char *message);

#endif
