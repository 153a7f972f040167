/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/admin/status_uprobes.h"
#include "cli/paths.h"
#include "cli/transport.h"
#include "cli/uprobe/ehs_uprobes.h"
#include "cli/uprobe/enabled.h"
#include "cli/uprobe/owned.h"
#include "cli/uprobe/uprobe_events.h"
#include "traceevent/uprobe_group.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ", NAME" after the first place. */
static int print_place(const char *enable, const char *instance, void *ctx)
{
	bool *any = ctx;

	(void)enable;
	if (instance == NULL)
		fputs("enabled in the top instance", stdout);
	else
		printf("%s%s", *any ? ", " : "enabled in instance ", instance);
	*any = true;
	return 0;
}

/* Each place that has the event enabled; perf's use does not show in
 * tracefs. */
static void print_enabled(const char *tracing, const char *group, const char *event)
{
	bool any = false;

	uprobe_each_enabled(tracing, group, event, print_place, &any);
	if (!any)
		fputs("not enabled in tracefs (perf's use does not show here)", stdout);
}

struct listing {
	const char *tracing;
	int ours;
	char group[EHS_UPROBE_GROUP_MAX];	/* of the last event listed */
};

/* Before the first event of a group: whose library it probes.  rest
 * starts "PATH:0xOFFSET(...)"; a path may hold ':' itself. */
static void print_group(struct listing *l, const char *group, const char *rest)
{
	size_t place = strcspn(rest, " "), path = place;

	if (strcmp(l->group, group) == 0)
		return;
	snprintf(l->group, sizeof l->group, "%s", group);
	while (path > 0 && rest[path - 1] != ':')
		path--;
	if (strcmp(group, EHS_UPROBE_GROUP) == 0)
		printf("  group %s: the installed library\n", group);
	else
		printf("  group %s: the copy at %.*s\n", group, (int)(path > 0 ? path - 1 : place),
		       rest);
}

static void print_event(const char *group, const char *event, const char *rest, void *ctx)
{
	struct listing *l = ctx;

	if (!ehs_uprobe_group(group) || !ehs_uprobe_event(event, NULL))
		return;
	print_group(l, group, rest);
	printf("  %s:%s  on %.*s  ", group, event, (int)strcspn(rest, " "), rest);
	print_enabled(l->tracing, group, event);
	putchar('\n');
	l->ours++;
}

void status_uprobes(enum cli_transport t, const char *tracing)
{
	struct listing l = { .tracing = tracing };
	int n, stale;

	if (t == CLI_TRANSPORT_USER_EVENTS)
		puts("transport:     user_events (the library's tracepoints; its uprobe events "
		     "when a reader asks: --uprobes)");
	else if (t == CLI_TRANSPORT_UPROBES)
		puts("transport:     uprobes: this kernel has no user_events, but uprobe events: "
		     "tail and export read the library's USDT probes, 'register --uprobes' "
		     "defines them for perf and trace-cmd");
	else if (t == CLI_TRANSPORT_HIDDEN)
		printf("transport:     cannot be told by this user (%s: %s; root can tell)\n", tracing,
		       strerror(EACCES));
	else
		printf("transport:     none: %s\n", tracing[0] == '\0' ? "no tracefs mounted"
		       : "this kernel has neither user_events nor uprobe events");
	if (t == CLI_TRANSPORT_HIDDEN || tracing[0] == '\0' || !uprobe_events_available(tracing))
		return;
	puts("uprobes:       the library's uprobe events, by group");
	n = uprobe_events_each(tracing, print_event, &l);
	if (n < 0)
		printf("  cannot read %s/uprobe_events: %s\n", tracing, strerror(-n));
	else if (l.ours == 0)
		puts("  none defined");
	stale = owned_stale(cli_runtime_dir(), tracing, false, NULL, NULL);
	if (stale > 0)
		printf("stale:         %d reader%s that %s gone defined uprobe events (%s/%s*): "
		       "'ehsyslog cleanup' removes those not enabled\n", stale, stale == 1 ? "" : "s",
		       stale == 1 ? "is" : "are", cli_runtime_dir(), OWNED_PREFIX);
}
