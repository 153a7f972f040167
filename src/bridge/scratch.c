/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/scratch.h"

#include "common/map_once.h"

char *ehs_scratch_slots;
unsigned char ehs_scratch_taken[EHS_SCRATCH_SLOTS];

char *ehs_scratch_map(void)
{
	return ehs_map_once((void **)&ehs_scratch_slots,
			    (size_t)EHS_SCRATCH_SLOTS * EHS_SCRATCH_SIZE);
}
