/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "traceevent/uprobe_group.h"

/* FNV-1a, 32 bits: short, and the same on every machine and version. */
static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void ehs_uprobe_group_name(const char *real, bool installed, char *g, size_t cap)
{
	if (installed)
		snprintf(g, cap, "%s", EHS_UPROBE_GROUP);
	else
		snprintf(g, cap, "%s_%08x", EHS_UPROBE_GROUP, (unsigned)fnv1a(real));
}

bool ehs_uprobe_group(const char *group)
{
	size_t n = sizeof EHS_UPROBE_GROUP - 1;

	if (strncmp(group, EHS_UPROBE_GROUP, n) != 0)
		return false;
	if (group[n] == '\0')
		return true;
	if (group[n] != '_' || strlen(group + n + 1) != 8)
		return false;
	/* Not isxdigit: the locale's digits are not ours. */
	return strspn(group + n + 1, "0123456789abcdef") == 8;
}

/* The library's probe names (src/usdt/sites.c), by level. */
static const char *const event_names[EHS_UPROBE_LEVELS] = {
	"critical", "error", "warning", "info", "verbose",
};

const char *ehs_uprobe_event_name(unsigned level)
{
	return level >= 1 && level <= EHS_UPROBE_LEVELS ? event_names[level - 1] : "?";
}

bool ehs_uprobe_event(const char *event, unsigned *level)
{
	for (unsigned i = 0; i < EHS_UPROBE_LEVELS; i++) {
		if (strcmp(event, event_names[i]) == 0) {
			if (level != NULL)
				*level = i + 1;
			return true;
		}
	}
	return false;
}
