/* SPDX-License-Identifier: MIT */
/* The line that marks where records were lost (output.h). */
#include "cli/output/output.h"

int out_lost(struct out *o, const struct read_lost *lost)
{
	char cpu[32] = "";
	int rc;

	if (o->sink != NULL)
		return 0;
	if (o->json) {
		if (lost->cpu >= 0)
			snprintf(cpu, sizeof cpu, ",\"cpu\":%d", lost->cpu);
		rc = lost->count == 0 ? fprintf(o->fp, "{\"lost\":null%s}\n", cpu)
				      : fprintf(o->fp, "{\"lost\":%llu%s}\n", lost->count, cpu);
	} else {
		if (lost->cpu >= 0)
			snprintf(cpu, sizeof cpu, "CPU %d: ", lost->cpu);
		rc = lost->count == 0 ? fprintf(o->fp, "-- %sevents lost, how many unknown --\n", cpu)
				      : fprintf(o->fp, "-- %s%llu event%s lost --\n", cpu, lost->count,
						lost->count == 1 ? "" : "s");
	}
	return rc < 0 ? -1 : 1;
}
