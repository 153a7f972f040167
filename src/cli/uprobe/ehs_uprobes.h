/* SPDX-License-Identifier: MIT */
/*
 * The ehsyslog library's uprobe events.  The library's .note.stapsdt
 * has provider "ehsyslog", a probe per EventHeader level (group.h), each with
 * six arguments: message, name (char *), severity, facility, errno
 * (int), event (char *, the base64 of the whole EventHeader event), and
 * one semaphore shared by all (each note names its own, so a library
 * with one per probe is read as well).  Each becomes uprobe event GROUP/NAME with
 * fields of those names, the strings as ustring, the integers as s32,
 * carrying the semaphore as its reference counter, so that the library
 * formats nothing while no event is enabled.  GROUP: group.h.
 */
#ifndef EHSYSLOG_CLI_EHS_UPROBES_H
#define EHSYSLOG_CLI_EHS_UPROBES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "traceevent/uprobe_group.h"

#define EHS_UPROBE_PROVIDER "ehsyslog"
#define EHS_UPROBE_LINE_MAX (PATH_MAX + 512)

struct ehs_uprobes {
	char lib[PATH_MAX];	/* the library's real path */
	char group[EHS_UPROBE_GROUP_MAX];
	/* Per level 1..5 (index level - 1): the definition line, and where
	 * it puts the probe, as uprobe_events shows it back: offset is the
	 * note's, or past its nop on the nop5 (cli/uprobe/nop5.h). */
	char line[EHS_UPROBE_LEVELS][EHS_UPROBE_LINE_MAX];
	unsigned long long offset[EHS_UPROBE_LEVELS], refctr[EHS_UPROBE_LEVELS];
	unsigned long long note_offset[EHS_UPROBE_LEVELS];
};

/* The group of the library at lib (NULL: the installed one) into g,
 * also for a library no longer there (lib then as its real path was). */
int ehs_uprobes_group_of(const char *lib, char *g, size_t cap, char *err, size_t errlen);

/*
 * The definitions for the library at lib (NULL: the installed one),
 * from its probes, in its own group.  0, or -1 with why in err.
 */
int ehs_uprobes_for(const char *lib, struct ehs_uprobes *u, char *err, size_t errlen);

/* The same in group (NULL: lib's own): a reader that follows a path
 * keeps its group when the file there is replaced by another. */
int ehs_uprobes_for_group(const char *lib, const char *group, struct ehs_uprobes *u,
			  char *err, size_t errlen);

/* The definitions for the file at path, taken as it is (not resolved:
 * /proc/PID/map_files/... or /proc/PID/root/..., which the kernel
 * follows into another mount namespace), in group.  0; 1 if the file
 * is not a library of ours (no ELF file, no probes of provider
 * ehsyslog), with why in err; -1 with why in err. */
int ehs_uprobes_for_mapping(const char *path, const char *group, struct ehs_uprobes *u,
			    char *err, size_t errlen);

/*
 * Defines the events of levels that are not yet defined; *created gets
 * the bits of those this call defined (bit per level 1..5).  An event
 * already defined with the same arguments gets a probe on u's file too,
 * unless it has one there already (a uprobe is bound to the inode its
 * path named when defined: a file replaced by rename, or another copy,
 * is not reached otherwise); *added gets the bits of the events it was
 * added to, which stay their definer's to remove.  One with other
 * arguments (another version of the library) is an error.  On failure,
 * what this call defined is removed again.  0, or -errno with why in err.
 */
int ehs_uprobes_define(const char *tracing, const struct ehs_uprobes *u, unsigned levels,
		       unsigned *created, unsigned *added, char *err, size_t errlen);

/* Removes the events of levels in group: calls cb for each with 0 or
 * the -errno of its removal (-ENOENT: was not defined; -EBUSY: enabled
 * by a tracer, left).  Returns the bits of those removed. */
typedef void (*ehs_uprobes_cb)(const char *group, unsigned level, int rc, void *ctx);
unsigned ehs_uprobes_remove(const char *tracing, const char *group, unsigned levels,
			    ehs_uprobes_cb cb, void *ctx);

#endif
