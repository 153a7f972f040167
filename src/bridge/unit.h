/* SPDX-License-Identifier: MIT */
/*
 * The systemd service a process runs in, as a field of each of its
 * events ("unit", <ehsyslog/schema.h>), so that a reader can tell whose
 * lines they are after the process exited: journald then loses
 * _SYSTEMD_UNIT (systemd issue 2913).  Read from /proc/self/cgroup when
 * the configuration is read (config/config.c), before any event: an
 * open, reads and a close, the calls the configuration's reading makes.
 *
 * The unit is the last component of the process's cgroup path that
 * names a service: a system service ("/system.slice/nginx.service"), or
 * a user's ("/user.slice/.../user@1000.service/app.slice/foo.service"
 * gives foo.service).  A scope (a login session, systemd-run --scope)
 * is not one: a shell's commands carry no unit.  The path is cgroup v2's
 * ("0::"), else that of systemd's own v1 hierarchy ("name=systemd").
 */
#ifndef EHS_BRIDGE_UNIT_H
#define EHS_BRIDGE_UNIT_H

#include <stddef.h>
#include <stdint.h>

#include "common/hidden.h"

/* systemd's bound on a unit's name. */
#define EHS_UNIT_MAX 255

struct ehs_unit {
	size_t field_len;	/* 0: no unit, else 2 + the name's length */
	uint8_t field[2 + EHS_UNIT_MAX];	/* the field's payload: a 16-bit
						 * count, then the name */
};

/* Written by ehs_unit_read before the configuration's state is
 * published, read only after it (an event needs it read). */
extern EHS_HIDDEN struct ehs_unit ehs_unit;

/* The unit named by the cgroup lines buf[0..len), as /proc/self/cgroup
 * holds them: its length, *name pointing into buf; 0 for none. */
size_t ehs_unit_of_cgroup(const char *buf, size_t len, const char **name);

/* Reads the process's unit into ehs_unit: none where /proc/self/cgroup
 * cannot be read.  errno may change. */
void ehs_unit_read(void);

#endif
