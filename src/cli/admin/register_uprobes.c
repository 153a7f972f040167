/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/admin/register_uprobes.h"
#include "cli/paths.h"
#include "cli/transport.h"
#include "cli/uprobe/owned.h"
#include "cli/uprobe/ehs_uprobes.h"
#include "cli/uprobe/uprobe_events.h"
#include "cli/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int define(const char *cmd, const char *tracing, const char *lib, unsigned levels)
{
	struct ehs_uprobes *u = malloc(sizeof *u);
	char err[1024];
	unsigned created, added, theirs;
	long pid = 0;
	int rc;

	if (u == NULL) {
		cli_error(cmd, "out of memory");
		return CLI_EXIT_RUNTIME;
	}
	if (ehs_uprobes_for(lib, u, err, sizeof err) < 0) {
		cli_error(cmd, "%s", err);
		free(u);
		return CLI_EXIT_RUNTIME;
	}
	rc = ehs_uprobes_define(tracing, u, levels, &created, &added, err, sizeof err);
	if (rc < 0) {
		cli_error(cmd, "%s", err);
		free(u);
		return cli_exit_for_errno(-rc);
	}
	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++)
		if (levels >> level & 1)
			printf("%s:%s\n", u->group, ehs_uprobe_event_name(level));
	if (added != 0)
		cli_error(cmd, "note: some of these were defined on an earlier file at %s, "
			  "replaced since; the probes of the file there now were added to them",
			  u->lib);
	theirs = owned_running(cli_runtime_dir(), u->group, &pid) & levels & ~created;
	if (theirs != 0)
		cli_error(cmd, "note: a running tail or export (pid %ld) defined some of these and "
			  "removes them when it exits; run this again after it to keep them", pid);
	free(u);
	return CLI_EXIT_OK;
}

struct removal {
	const char *cmd;
	int rc;
};

static void removed(const char *group, unsigned level, int rc, void *ctx)
{
	struct removal *r = ctx;

	if (rc == 0) {
		printf("%s:%s\n", group, ehs_uprobe_event_name(level));
		return;
	}
	if (rc == -ENOENT)
		return;	/* not defined: nothing to delete */
	if (rc == -EBUSY)
		cli_error(r->cmd, "cannot delete %s/%s: in use (enabled by a tracer: a tail, "
			  "perf or trace-cmd)", group, ehs_uprobe_event_name(level));
	else
		cli_error(r->cmd, "cannot delete %s/%s: %s", group,
			  ehs_uprobe_event_name(level), strerror(-rc));
	if (r->rc == CLI_EXIT_OK)
		r->rc = rc == -EBUSY ? CLI_EXIT_RUNTIME : cli_exit_for_errno(-rc);
}

static int delete(const char *cmd, const char *tracing, const char *lib, unsigned levels)
{
	struct removal r = { .cmd = cmd, .rc = CLI_EXIT_OK };
	char group[EHS_UPROBE_GROUP_MAX], err[1024];

	if (ehs_uprobes_group_of(lib, group, sizeof group, err, sizeof err) < 0) {
		cli_error(cmd, "%s", err);
		return CLI_EXIT_RUNTIME;
	}
	ehs_uprobes_remove(tracing, group, levels, removed, &r);
	return r.rc;
}

int register_uprobes(const char *cmd, unsigned levels, bool remove, char **libs, int nlibs)
{
	char tracing[PATH_MAX], err[PATH_MAX + 128];
	int rc = cli_uprobe_tracing(tracing, sizeof tracing, err, sizeof err);

	if (rc != CLI_EXIT_OK) {
		cli_error(cmd, "%s", err);
		return rc;
	}
	/* Each library on its own: one that fails leaves the others done. */
	for (int i = 0; i < (nlibs > 0 ? nlibs : 1); i++) {
		const char *lib = nlibs > 0 ? libs[i] : NULL;
		int r = (remove ? delete : define)(cmd, tracing, lib, levels);

		if (rc == CLI_EXIT_OK)
			rc = r;
	}
	if (fflush(stdout) != 0 && rc == CLI_EXIT_OK) {
		cli_error(cmd, "cannot write the names: %s", strerror(errno));
		rc = CLI_EXIT_RUNTIME;
	}
	return rc;
}
