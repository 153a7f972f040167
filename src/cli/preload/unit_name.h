/* SPDX-License-Identifier: MIT */
/*
 * Names of systemd service units, as "preload --unit" takes them: a bare
 * NAME means NAME.service (as systemctl reads it); another unit type is
 * refused, since only services run programs with an Environment=.
 */
#ifndef CLI_UNIT_NAME_H
#define CLI_UNIT_NAME_H

#include <stddef.h>

/* systemd's limit, the terminating NUL included (UNIT_NAME_MAX). */
#define UNIT_NAME_SIZE 256

/*
 * Puts the full service name for arg into out (UNIT_NAME_SIZE bytes).
 * Returns NULL, or why arg is not a service name (a static string).
 */
const char *unit_name_service(const char *arg, char out[UNIT_NAME_SIZE]);

#endif /* CLI_UNIT_NAME_H */
