/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY: declarations of branch writer's include/ehsyslog/user_events.h
 * (commit 44bf52b) that the tool uses; the real header wins once merged
 * (include/ comes first on the include path).  The lead deletes
 * src/cli/tmp_include/ at merge.
 */
#ifndef EHSYSLOG_USER_EVENTS_H
#define EHSYSLOG_USER_EVENTS_H

#include <stdint.h>

#define UE_STATE_UNREGISTERED 0x80000000u
#define UE_PERSIST 0x1u

struct ue_tracepoint {
	uint32_t state;
	uint32_t priv_flags;
	const char *name;
	uint64_t priv_channel;
	struct ue_tracepoint *priv_next;
};

#define UE_TRACEPOINT_INIT(name_literal) \
	{ UE_STATE_UNREGISTERED, 0, (name_literal), 0, 0 }

int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags);
void ue_close(void);

enum ue_status_state {
	UE_STATUS_UNUSED = 0,
	UE_STATUS_OK,
	UE_STATUS_NO_USER_EVENTS,
	UE_STATUS_NO_PERMISSION,
	UE_STATUS_NO_TRACEFS,
	UE_STATUS_ERROR,
};

#define UE_PATH_MAX 256

struct ue_status {
	int state;
	int error;
	char path[UE_PATH_MAX];
	unsigned registered;
	unsigned failed;
	unsigned long oversize;
};

void ue_status(struct ue_status *out);

#endif
