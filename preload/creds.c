/* SPDX-License-Identifier: MIT */
/*
 * The calls that change the process's credentials.  The kernel checks
 * who may write events when user_events_data is opened, not at each
 * write or registration, so a descriptor opened as root would outlive a
 * privilege drop: a prefork server's worker that called setresuid() could
 * still register tracepoints and write events through the descriptor it
 * inherited.  After each successful change the writer lets its
 * descriptor and registrations go (ue_credentials_changed), and the next
 * traced call opens again with the new credentials, or finds it may not.
 *
 * A program that never logged pays one call and a load.  Changes made by
 * raw system calls (statically linked or Go programs) are not seen.
 */
#include "config.h"

#undef _FORTIFY_SOURCE

#include <errno.h>
#include <grp.h>
#include <sys/fsuid.h>
#include <sys/types.h>
#include <unistd.h>

#include <ehsyslog/user_events.h>

#include "preload/next.h"
#include "preload/real.h"

/* glibc's, declared in <sys/capability.h> of libcap or the kernel's
 * headers with their own types: both arguments are pointers. */
int capset(void *header, const void *data);

typedef int (*id1_fn)(unsigned);
typedef int (*id2_fn)(unsigned, unsigned);
typedef int (*id3_fn)(unsigned, unsigned, unsigned);
typedef int (*setgroups_fn)(size_t, const gid_t *);
typedef int (*initgroups_fn)(const char *, gid_t);
typedef int (*capset_fn)(void *, const void *);

static void *real_setuid, *real_setgid, *real_seteuid, *real_setegid, *real_setreuid,
	*real_setregid, *real_setresuid, *real_setresgid, *real_setgroups, *real_initgroups,
	*real_setfsuid, *real_setfsgid, *real_capset;

/* Not reached: libc has every one of these. */
static int missing(void)
{
	errno = ENOSYS;
	return -1;
}

/* r from a call that changes credentials on success (0). */
static int changed(int r)
{
	if (r == 0)
		ue_credentials_changed();
	return r;
}

#define WRAP1(name, type) \
	EHS_INTERPOSE int name(type id) \
	{ \
		NEXT(id1_fn, f, real_##name, #name); \
		return f ? changed(f(id)) : missing(); \
	}
#define WRAP2(name, type) \
	EHS_INTERPOSE int name(type a, type b) \
	{ \
		NEXT(id2_fn, f, real_##name, #name); \
		return f ? changed(f(a, b)) : missing(); \
	}
#define WRAP3(name, type) \
	EHS_INTERPOSE int name(type a, type b, type c) \
	{ \
		NEXT(id3_fn, f, real_##name, #name); \
		return f ? changed(f(a, b, c)) : missing(); \
	}

WRAP1(setuid, uid_t)
WRAP1(setgid, gid_t)
WRAP1(seteuid, uid_t)
WRAP1(setegid, gid_t)
WRAP2(setreuid, uid_t)
WRAP2(setregid, gid_t)
WRAP3(setresuid, uid_t)
WRAP3(setresgid, gid_t)

EHS_INTERPOSE int setgroups(size_t n, const gid_t *groups)
{
	NEXT(setgroups_fn, f, real_setgroups, "setgroups");
	return f ? changed(f(n, groups)) : missing();
}

/* glibc's initgroups() calls its own setgroups(), not ours. */
EHS_INTERPOSE int initgroups(const char *user, gid_t group)
{
	NEXT(initgroups_fn, f, real_initgroups, "initgroups");
	return f ? changed(f(user, group)) : missing();
}

EHS_INTERPOSE int capset(void *header, const void *data)
{
	NEXT(capset_fn, f, real_capset, "capset");
	return f ? changed(f(header, data)) : missing();
}

/* setfsuid() and setfsgid() return the previous id whether or not they
 * changed it; an id of -1 changes nothing and returns the current one.
 * Servers call them around each file access, so only a real change
 * counts. */
static int fs_id(id1_fn f, unsigned id)
{
	int previous = f(id);

	if ((unsigned)previous != id && (unsigned)f((unsigned)-1) == id)
		ue_credentials_changed();
	return previous;
}

EHS_INTERPOSE int setfsuid(uid_t id)
{
	NEXT(id1_fn, f, real_setfsuid, "setfsuid");
	return f ? fs_id(f, id) : missing();
}

EHS_INTERPOSE int setfsgid(gid_t id)
{
	NEXT(id1_fn, f, real_setfsgid, "setfsgid");
	return f ? fs_id(f, id) : missing();
}
