/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/paths.h"
#include "cli/uprobe/ehs_uprobes.h"
#include "cli/uprobe/fetch_arg.h"
#include "cli/uprobe/nop5.h"
#include "cli/uprobe/rearm.h"
#include "cli/uprobe/uprobe_events.h"
#include "cli/uprobe/usdt_note.h"

/* The probes' arguments, in the note's order. */
static const struct {
	const char *field;
	enum fetch_type type;
} fields[] = {
	{ "message", FETCH_USTRING }, { "name", FETCH_USTRING }, { "severity", FETCH_S32 },
	{ "facility", FETCH_S32 }, { "errno", FETCH_S32 }, { "event", FETCH_USTRING },
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* lib's real path into real, and whether it is the installed library. */
static int resolve(const char *lib, char *real, bool *installed, char *err, size_t errlen)
{
	const char *installed_path = cli_library_path();
	char other[PATH_MAX];

	if (realpath(lib != NULL ? lib : installed_path, real) == NULL) {
		snprintf(err, errlen, "%s: %s%s", lib != NULL ? lib : installed_path, strerror(errno),
			 lib == NULL ? " (the installed library; EHSYSLOG_LIBRARY names another)" : "");
		return -1;
	}
	*installed = lib == NULL ||
		     (realpath(installed_path, other) != NULL && strcmp(other, real) == 0);
	return 0;
}

int ehs_uprobes_group_of(const char *lib, char *g, size_t cap, char *err, size_t errlen)
{
	char real[PATH_MAX];
	bool installed;

	/* A library removed since (an upgrade) still names its group: the
	 * installed one's is fixed, a copy's hashes the path it had, given
	 * as its real path. */
	if (lib == NULL) {
		ehs_uprobe_group_name(NULL, true, g, cap);
		return 0;
	}
	if (lib[0] == '/' && access(lib, F_OK) < 0 && errno == ENOENT) {
		ehs_uprobe_group_name(lib, false, g, cap);
		return 0;
	}
	if (resolve(lib, real, &installed, err, errlen) < 0)
		return -1;
	ehs_uprobe_group_name(real, installed, g, cap);
	return 0;
}

/* The line defining level's event from its probe p. */
static int define_line(struct ehs_uprobes *u, int fd, unsigned machine,
		       const struct usdt_probe *p, unsigned level, char *err, size_t errlen)
{
	char args[USDT_ARGS_MAX], *arg[NFIELDS + 1], *line = u->line[level - 1];
	size_t cap = sizeof u->line[0], len;
	unsigned long long offset = nop5_site_offset(fd, machine, p->offset);
	char why[256];
	int n;

	snprintf(args, sizeof args, "%s", p->args);
	n = fetch_arg_split(args, arg, NFIELDS + 1);
	if (n != (int)NFIELDS) {
		snprintf(err, errlen, "%s: probe %s:%s has %s arguments, not the %zu this tool reads "
			 "(another version of the library?)", u->lib, EHS_UPROBE_PROVIDER, p->name,
			 n < 0 ? "more" : "other", NFIELDS);
		return -1;
	}
	len = (size_t)snprintf(line, cap, "p:%s/%s %s:0x%llx(0x%llx)", u->group,
			       ehs_uprobe_event_name(level), u->lib, offset,
			       (unsigned long long)p->semaphore);
	for (size_t i = 0; i < NFIELDS && len < cap; i++) {
		char fetch[128];

		if (fetch_arg(machine, arg[i], fields[i].type, fetch, sizeof fetch, why,
			      sizeof why) < 0) {
			snprintf(err, errlen, "%s: probe %s:%s, argument %zu (%s): %s", u->lib,
				 EHS_UPROBE_PROVIDER, p->name, i + 1, fields[i].field, why);
			return -1;
		}
		len += (size_t)snprintf(line + len, cap - len, " %s=%s", fields[i].field, fetch);
	}
	if (len >= cap) {
		snprintf(err, errlen, "%s: the definition is too long", u->lib);
		return -1;
	}
	u->offset[level - 1] = offset;
	u->note_offset[level - 1] = p->offset;
	u->refctr[level - 1] = p->semaphore;
	return 0;
}

/* What the definitions rest on: one site per level, each with a
 * semaphore (without, the library could not tell it is traced). */
static int check_probes(const struct ehs_uprobes *u, const struct usdt_file *f,
			char *err, size_t errlen)
{
	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++) {
		const char *name = ehs_uprobe_event_name(level);
		int sites = 0;

		for (size_t i = 0; i < f->count; i++)
			sites += strcmp(f->probes[i].name, name) == 0;
		if (sites != 1) {
			snprintf(err, errlen, "%s: %d sites of probe %s:%s, where one is expected",
				 u->lib, sites, EHS_UPROBE_PROVIDER, name);
			return -1;
		}
		if (usdt_file_find(f, name)->semaphore == 0) {
			snprintf(err, errlen, "%s: probe %s:%s has no semaphore", u->lib,
				 EHS_UPROBE_PROVIDER, name);
			return -1;
		}
	}
	return 0;
}

/* What the kernel's isspace() takes for white space: it splits a
 * definition there, and says only EINVAL. */
static const struct {
	char c;
	const char *escape, *name;
} blanks[] = {
	{ ' ', " ", "a space" }, { '\t', "\\t", "a tab" }, { '\n', "\\n", "a newline" },
	{ '\v', "\\v", "a vertical tab" }, { '\f', "\\f", "a form feed" },
	{ '\r', "\\r", "a carriage return" },
};
#define NBLANKS (sizeof blanks / sizeof blanks[0])

/* True, with the message in err (the path shown with C escapes), if
 * path holds white space. */
static bool blank_in_path(const char *path, char *err, size_t errlen)
{
	char shown[2 * PATH_MAX];
	size_t at = 0, first = NBLANKS;

	for (const char *p = path; *p != '\0' && at + 3 < sizeof shown; p++) {
		size_t k = 0;

		while (k < NBLANKS && blanks[k].c != *p)
			k++;
		if (k == NBLANKS) {
			shown[at++] = *p;
			continue;
		}
		if (first == NBLANKS)
			first = k;
		at += (size_t)snprintf(shown + at, sizeof shown - at, "%s", blanks[k].escape);
	}
	shown[at] = '\0';
	if (first == NBLANKS)
		return false;
	snprintf(err, errlen, "%s: the path holds %s, which uprobe_events takes for white space: "
		 "it cannot be given there", shown, blanks[first].name);
	return true;
}

int ehs_uprobes_for(const char *lib, struct ehs_uprobes *u, char *err, size_t errlen)
{
	return ehs_uprobes_for_group(lib, NULL, u, err, errlen);
}

/* The definitions from the probes of the file at u->lib, in u->group.
 * 0; 1 (why in err) if the file has no probes of ours, or is no ELF
 * file; -1 with why in err. */
static int define_lines(struct ehs_uprobes *u, char *err, size_t errlen)
{
	struct usdt_file f;
	char why[512];
	int rc, fd;

	if (usdt_file_read(u->lib, EHS_UPROBE_PROVIDER, &f, why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: %s", u->lib, why);
		return 1;
	}
	rc = blank_in_path(u->lib, err, errlen) ? -1 : check_probes(u, &f, err, errlen);
	/* Opened once for the sites' bytes (nop5.h); without it, the nops
	 * the notes name. */
	fd = rc == 0 ? open(u->lib, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
	for (unsigned level = 1; rc == 0 && level <= EHS_UPROBE_LEVELS; level++) {
		const char *name = ehs_uprobe_event_name(level);
		rc = define_line(u, fd, f.machine, usdt_file_find(&f, name), level, err, errlen);
	}
	if (fd >= 0)
		close(fd);
	usdt_file_free(&f);
	return rc;
}

int ehs_uprobes_for_group(const char *lib, const char *group, struct ehs_uprobes *u,
			  char *err, size_t errlen)
{
	bool installed;

	memset(u, 0, sizeof *u);
	if (resolve(lib, u->lib, &installed, err, errlen) < 0)
		return -1;
	if (group != NULL)
		snprintf(u->group, sizeof u->group, "%s", group);
	else
		ehs_uprobe_group_name(u->lib, installed, u->group, sizeof u->group);
	return define_lines(u, err, errlen) == 0 ? 0 : -1;
}

int ehs_uprobes_for_mapping(const char *path, const char *group, struct ehs_uprobes *u,
			    char *err, size_t errlen)
{
	memset(u, 0, sizeof *u);
	if ((size_t)snprintf(u->lib, sizeof u->lib, "%s", path) >= sizeof u->lib) {
		snprintf(err, errlen, "%s: the path is too long", path);
		return -1;
	}
	snprintf(u->group, sizeof u->group, "%s", group);
	return define_lines(u, err, errlen);
}

/* What uprobe_events shows of an event already there: its arguments
 * (the same on each of its lines: the kernel refuses others), and
 * whether one of its lines probes the path at the other of a site's two
 * offsets (the note's nop, or the nop5 after it). */
struct shown {
	const char *group, *event;
	char other_place[PATH_MAX + 64];	/* "PATH:0xOFF(0xREF)", as shown */
	char args[EHS_UPROBE_LINE_MAX];
	bool found, other_form;
};

static void find_shown(const char *group, const char *event, const char *rest, void *ctx)
{
	struct shown *s = ctx;
	size_t place_len = strcspn(rest, " ");
	const char *args = rest + place_len;

	if (strcmp(group, s->group) != 0 || strcmp(event, s->event) != 0)
		return;
	snprintf(s->args, sizeof s->args, "%s", args + strspn(args, " "));
	s->found = true;
	if (place_len == strlen(s->other_place) && strncmp(rest, s->other_place, place_len) == 0)
		s->other_form = true;
}

/* The arguments of a definition line "p:GROUP/EVENT PLACE ARGS". */
static const char *line_args(const char *line)
{
	const char *place = strchr(line, ' ');
	const char *args = place != NULL ? strchr(place + 1, ' ') : NULL;

	return args != NULL ? args + 1 : "";
}

/*
 * Level's event is defined already: by another reader, by register, or
 * on an earlier file at u's path (a library replaced by rename, as
 * package upgrades do, is another inode, which the event's probes do
 * not reach).  A probe on u's file is added to it: the kernel appends a
 * definition with the same arguments to the event, and answers EEXIST
 * when one of its probes is at the same offset of the same inode
 * already.  It answers EEXIST for other arguments too, so those are
 * compared first.  Where the event probes the path at the site's other
 * offset (defined by a tool that chose the other nop), the probe goes
 * there too: two offsets of one inode would fire twice per event.  An
 * added probe is armed later, once per call (rearm.h).  0, with the
 * level's bit in *added when a probe was added; else -errno with why
 * in err.
 */
static int cover_existing(const char *tracing, const struct ehs_uprobes *u, unsigned level,
			  unsigned *added, char *err, size_t errlen)
{
	struct shown s = { .group = u->group, .event = ehs_uprobe_event_name(level) };
	unsigned long long off = u->offset[level - 1], note = u->note_offset[level - 1];
	unsigned long long other = off == note ? note + 1 : note;
	char line[EHS_UPROBE_LINE_MAX];
	const char *mine = u->line[level - 1];
	int rc;

	snprintf(s.other_place, sizeof s.other_place, "%s:0x%016llx(0x%llx)", u->lib, other,
		 u->refctr[level - 1]);
	if (uprobe_events_each(tracing, find_shown, &s) < 0 || !s.found)
		return 0;	/* cannot tell, or gone meanwhile: the next step says */
	if (s.other_form) {
		snprintf(line, sizeof line, "p:%s/%s %s:0x%llx(0x%llx) %s", u->group, s.event,
			 u->lib, other, u->refctr[level - 1], line_args(mine));
		mine = line;
	}
	if (strcmp(s.args, line_args(mine)) != 0) {
		snprintf(err, errlen, "uprobe event %s/%s is defined with other arguments than %s's "
			 "probes have (another version of the library?): "
			 "'ehsyslog register --uprobes --delete' removes it",
			 u->group, s.event, u->lib);
		return -EEXIST;
	}
	/* Only the kernel can tell whether the file has its probe already
	 * (the paths uprobe_events shows may name other files now). */
	rc = uprobe_events_write(tracing, mine);
	if (rc == 0)
		*added |= 1u << level;
	else if (rc == -EEXIST)
		rc = 0;	/* this file's probe is there */
	else
		snprintf(err, errlen, "cannot add %s's probe to uprobe event %s/%s: %s", u->lib,
			 u->group, s.event, strerror(-rc));
	return rc;
}

/* Arms the probes added to the events of levels (rearm.h). */
static int arm_added(const char *tracing, const struct ehs_uprobes *u, unsigned levels,
		     char *err, size_t errlen)
{
	const char *events[EHS_UPROBE_LEVELS];
	size_t n = 0;
	int rc;

	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++)
		if (levels >> level & 1)
			events[n++] = ehs_uprobe_event_name(level);
	if (n == 0 || (rc = uprobe_rearm(tracing, u->group, events, n)) == 0)
		return 0;
	snprintf(err, errlen, "cannot arm %s's probes added to the uprobe events of group %s: "
		 "cannot disable and enable them again: %s", u->lib, u->group, strerror(-rc));
	return rc;
}

int ehs_uprobes_define(const char *tracing, const struct ehs_uprobes *u, unsigned levels,
		       unsigned *created, unsigned *added, char *err, size_t errlen)
{
	int rc = 0, lock = uprobe_events_lock(tracing);
	char unused[256];

	*created = *added = 0;
	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS && rc == 0; level++) {
		if (!(levels >> level & 1))
			continue;
		const char *event = ehs_uprobe_event_name(level);
		rc = uprobe_events_defined(tracing, u->group, event);
		if (rc == 1) {
			rc = cover_existing(tracing, u, level, added, err, errlen);
			continue;
		}
		if (rc == 0)
			rc = uprobe_events_write(tracing, u->line[level - 1]);
		/* Another reader defined it meanwhile: use it. */
		if (rc == -EEXIST)
			rc = cover_existing(tracing, u, level, added, err, errlen);
		else if (rc == 0)
			*created |= 1u << level;
		else
			snprintf(err, errlen, "cannot define uprobe event %s/%s in %s/uprobe_events: %s%s",
				 u->group, event, tracing, strerror(-rc),
				 rc == -ENOENT ? " (this kernel has no uprobe events: CONFIG_UPROBE_EVENTS)" : "");
	}
	/* Armed also when a later level failed: they stay in the events. */
	if (rc == 0)
		rc = arm_added(tracing, u, *added, err, errlen);
	else
		arm_added(tracing, u, *added, unused, sizeof unused);
	if (rc != 0) {
		ehs_uprobes_remove(tracing, u->group, *created, NULL, NULL);
		*created = 0;
	}
	uprobe_events_unlock(lock);
	return rc;
}

unsigned ehs_uprobes_remove(const char *tracing, const char *group, unsigned levels,
			    ehs_uprobes_cb cb, void *ctx)
{
	unsigned removed = 0;

	for (unsigned level = 1; level <= EHS_UPROBE_LEVELS; level++) {
		int rc;

		if (!(levels >> level & 1))
			continue;
		const char *event = ehs_uprobe_event_name(level);
		rc = uprobe_events_remove(tracing, group, event);
		if (rc == 0)
			removed |= 1u << level;
		if (cb != NULL)
			cb(group, level, rc, ctx);
	}
	return removed;
}
