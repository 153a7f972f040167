/* SPDX-License-Identifier: MIT */
/*
 * The rule for a file that holds secrets (the header file's tokens), as
 * ssh has for its own files: a regular file, owned by the user export
 * runs as or by root, that neither group nor others may write and others
 * may not read; group read is allowed, for a group a service shares
 * (0600 and 0640 pass, 0644 and 0660 do not).  Checked on the opened
 * file, so that what is checked is what is read.
 */
#ifndef EHSYSLOG_CLI_EXPORT_SECRET_FILE_H
#define EHSYSLOG_CLI_EXPORT_SECRET_FILE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* NULL when st passes for a caller of effective user id euid, else why
 * not, as a phrase: "writable by group". */
const char *secret_file_refusal(const struct stat *st, uid_t euid);

#endif
