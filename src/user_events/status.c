/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "ehsyslog/user_events.h"

const char *ue_status_string(int state)
{
	switch (state) {
	case UE_STATUS_UNUSED:
		return "not used yet";
	case UE_STATUS_OK:
		return "ok";
	case UE_STATUS_NO_USER_EVENTS:
		return "kernel without user_events";
	case UE_STATUS_NO_PERMISSION:
		return "no permission to open user_events_data";
	case UE_STATUS_NO_TRACEFS:
		return "tracefs not mounted";
	case UE_STATUS_ERROR:
		return "error";
	}
	return "unknown state";
}
