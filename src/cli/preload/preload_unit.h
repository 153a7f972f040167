/* SPDX-License-Identifier: MIT */
/*
 * Preloading the library into one systemd service: the drop-in
 * <systemd dir>/NAME.service.d/ehsyslog.conf sets the service's
 * LD_PRELOAD to its own entries followed by the library.  Only that file
 * is ever written or removed; other drop-ins are the admin's.
 */
#ifndef CLI_PRELOAD_UNIT_H
#define CLI_PRELOAD_UNIT_H

#include <stdbool.h>
#include <stddef.h>

/* The drop-in's file name in NAME.service.d. */
#define PRELOAD_UNIT_DROP_IN "ehsyslog.conf"

/* Writes unit's drop-in for lib (already checked), or says it is there.
 * Returns 0, or prints cmd's error and returns an exit code. */
int preload_unit_enable(const char *cmd, const char *unit, const char *lib);

/* Removes unit's drop-in, and its directory if nothing else is left. */
int preload_unit_disable(const char *cmd, const char *unit);

/* True if unit has the drop-in; its path goes into path (size bytes). */
bool preload_unit_has(const char *unit, char *path, size_t size);

/*
 * Calls fn for each unit with the drop-in, in name order.  Returns how
 * many there are, or a negative errno when the systemd directory cannot
 * be read (a missing one holds none).
 */
int preload_unit_list(void (*fn)(const char *unit, const char *path, void *ctx), void *ctx);

#endif /* CLI_PRELOAD_UNIT_H */
