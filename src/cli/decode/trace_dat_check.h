/* SPDX-License-Identifier: MIT */
/*
 * A bounds-checking pass over a trace.dat file image, run before
 * libtracecmd sees the file: libtracecmd trusts the file's lengths,
 * counts and strings (it reads past buffers and allocates whatever
 * size the file names), so decode hands it only files in which every
 * one of them has been checked here.
 */
#ifndef EHSYSLOG_CLI_TRACE_DAT_CHECK_H
#define EHSYSLOG_CLI_TRACE_DAT_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* The most CPUs a file may describe (the kernel's largest NR_CPUS). */
#define TRACE_DAT_MAX_CPUS 8192

/*
 * Checks the image p[0..len): header, metadata (v6 in its fixed order,
 * v7 as its chain of sections), options, where the CPU data lies, and,
 * if page_long is 4 or 8, every ring-buffer page of it, zstd-compressed
 * or not.  page_long is the size of the pages' commit field, which
 * libtracecmd takes from the file's header_page text: so decode checks
 * with 0 before libtracecmd parses that, and again with the size it
 * found before libtracecmd reads a page.  Returns 0 with the file's page
 * size in *page_size, or -1 with the reason in err ("header_page size
 * past the end of its data").  Never reads outside p[0..len); in all,
 * decompresses at most perf_unzip_limit(len) bytes.
 */
int trace_dat_check(const uint8_t *p, size_t len, unsigned page_long, uint32_t *page_size,
		    char *err, size_t errlen);

#endif
