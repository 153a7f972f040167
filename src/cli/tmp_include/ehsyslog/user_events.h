/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY: the writer API as the cli-admin branch assumes it, until
 * branch "writer" lands include/ehsyslog/user_events.h (which then takes
 * precedence: include/ comes first on the include path).  The lead deletes
 * src/cli/tmp_include/ at merge.
 */
#ifndef EHSYSLOG_USER_EVENTS_H
#define EHSYSLOG_USER_EVENTS_H

#include <stdint.h>

struct ue_tracepoint {
	const char *name;	/* tracepoint name; the writer adds the fields */
	uint32_t enabled;	/* enable word the kernel updates */
	int write_index;
	int registered;
};

#define UE_TRACEPOINT_INIT(tp_name) { .name = (tp_name), .enabled = 0, .write_index = -1, .registered = 0 }

enum ue_register_flags {
	UE_PERSIST = 1,		/* survives the process; needs CAP_PERFMON */
};

/* 0, or a negative errno: -ENOENT no user_events, -EACCES/-EPERM denied. */
int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags);

enum ue_state {
	UE_STATE_UNUSED,
	UE_STATE_OK,
	UE_STATE_NO_USER_EVENTS,
	UE_STATE_NO_PERMISSION,
	UE_STATE_NO_TRACEFS,
	UE_STATE_ERROR,
};

struct ue_status {
	enum ue_state state;
	int error;		/* errno of the failure, 0 if none */
	const char *path;	/* user_events_data path tried, or NULL */
};

void ue_status(struct ue_status *st);

/* Unregisters every tracepoint and closes the data file. */
void ue_close(void);

#endif
