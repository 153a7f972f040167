/* SPDX-License-Identifier: MIT */
/*
 * The writer: Linux user_events tracepoints for EventHeader events.
 *
 * It finds and opens <tracefs>/user_events_data, registers tracepoints,
 * each with its own enable word the kernel keeps up to date, and writes
 * events with one writev.  It knows nothing about syslog.
 *
 *   static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("MyProv_L4K1");
 *
 *   if (ue_tracepoint_active(&tp)) {        // one relaxed load when idle
 *           struct iovec iov[1 + EH_EVENT_IOV];
 *           eh_event_iov(&prefix, &hdr, NULL, NULL, &meta, p, n, iov + 1);
 *           ue_tracepoint_write(&tp, iov, 1 + EH_EVENT_IOV);
 *   }
 *
 * Laziness: nothing is opened and no syscall is made until a tracepoint is
 * first checked.  That first check opens user_events_data (the fixed path
 * /sys/kernel/tracing/user_events_data, else the first tracefs mount in
 * /proc/mounts, else <debugfs>/tracing; when /sys/kernel/tracing is a
 * tracefs without it, the kernel has no user_events and no other is
 * looked for) and registers the tracepoint with
 * "<name> u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode;
 * u8 level".
 *
 * EHSYSLOG_TRACEFS, when set and not empty, names the tracefs directory
 * and replaces that search, for every process and tool alike (tests point
 * it at a tracefs of their own).  It is read with secure_getenv(), only
 * when user_events_data is opened, never at start-up nor per event: a
 * setuid or setgid program, or one that gained capabilities, ignores it,
 * as it ignores the bridge's variables.  Elsewhere it can only redirect
 * a process to another tracefs mount or silence it: the writer writes
 * only to a file on tracefs (see "Failure and retry policy").
 *
 * Failure and retry policy.  Permanent failures: user_events missing
 * (ENOENT), no permission (EACCES, EPERM), tracefs not mounted, a file
 * that is not on tracefs, any other error opening user_events_data, and a
 * registration the kernel refuses once the file is open (limits, name).
 * The tracepoints concerned become silent no-ops: their state word stays
 * 0, so the check costs what a disabled tracepoint costs, and nothing is
 * retried until ue_retry() - the syslog bridge calls it from openlog() -
 * or exec.  ue_status() says why.
 *
 * Transient failures: opening user_events_data fails with EMFILE, ENFILE,
 * ENOMEM, EAGAIN or EINTR; the program took our descriptor (closed it,
 * put a file of its own at its number); a registration fails with ENOMEM
 * or EAGAIN.  Nothing has to ask for these: the tracepoints concerned keep
 * UE_STATE_RETRY in their word, so their checks (ue_tracepoint_active)
 * and writes go on reaching the slow path, which opens and registers
 * again at most once per 100 ms of CLOCK_MONOTONIC_COARSE.  That clock
 * is read without a syscall, so a flood of calls while it fails makes no
 * syscall and takes no lock between attempts.  In libehsyslog.so a
 * descriptor the program frees (close, close_range, closefrom, fclose)
 * or a new RLIMIT_NOFILE ends the wait: the next call tries at once.  A
 * successful attempt registers every tracepoint that failed again.
 * Events written in the meantime are lost (-ENOTCONN), never sent
 * elsewhere: once the cause is gone, the first traced call of a
 * tracepoint more than 100 ms after the last attempt writes its event.
 *
 * Size limit: ftrace drops events larger than its page without telling the
 * writer, so ue_tracepoint_write() refuses events whose bytes (after the
 * write index) exceed UE_EVENT_MAX with -EMSGSIZE and counts them in
 * ue_status().oversize.
 *
 * Descriptor: close-on-exec, at a number the program does not use.
 * Where the soft RLIMIT_NOFILE is below the hard one and at most 4096,
 * that number is the soft limit, where no open(), dup() or dup2() of the
 * program can put a file, and a traced write is one syscall.  Elsewhere
 * (and where the library was dlopen()ed) it sits below the limit and
 * each traced write first checks it with fstat().  libehsyslog.so also
 * interposes close(), close_range(), closefrom(), dup2(), dup3(),
 * fcntl(), fclose(), setrlimit() and prlimit() to hide the descriptor
 * from the program and keep it at the limit.  No byte of an event goes to
 * a file of the program's, except in the one case docs/design.md ("The
 * descriptor policy", in the source tree) describes with the rest of the
 * policy: the soft limit raised and the number closed, both by raw
 * syscalls, then a file of the program's put at that number.
 *
 * Exit: a process that never checked a tracepoint does nothing at exit
 * (no lock, no fork handlers were ever registered); otherwise the
 * destructor unregisters its enable words under the lock.
 *
 * fork: the child keeps the descriptor and the kernel copies the enable
 * registrations, so it goes on writing with its own pid.  exec: the
 * descriptor is close-on-exec and the kernel drops the registrations.
 *
 * Threads: registration is serialized by one lock; checks and writes take
 * no lock and never allocate.  A signal handler that interrupts the
 * registering thread sees its tracepoint as inactive.  Every function
 * preserves errno and nothing here prints.
 */
#ifndef EHSYSLOG_USER_EVENTS_H
#define EHSYSLOG_USER_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef UE_API
#define UE_API __attribute__((visibility("default")))
#endif

/*
 * The state word is the enable word registered with the kernel (4 bytes,
 * bit 0).  The kernel flips only bit 0, atomically, so the other bits are
 * ours: UE_STATE_UNREGISTERED means "registration not tried yet",
 * UE_STATE_RETRY "registration failed for a reason that may go away: try
 * again when due".  A word of 0 means registered and untraced, or failed
 * for good: either way, do nothing.
 */
#define UE_STATE_ENABLED 0x1u
#define UE_STATE_RETRY 0x40000000u
#define UE_STATE_UNREGISTERED 0x80000000u

/* Largest event (bytes after the write index) that ftrace with 4 KiB
 * pages records; perf accepts more, but an event must fit both. */
#define UE_EVENT_MAX 4064

/* ue_tracepoint_register() flags. */
#define UE_PERSIST 0x1u		/* event outlives its last user; needs CAP_PERFMON */

struct ue_tracepoint {
	uint32_t state;		/* kernel's enable word + UE_STATE_* */
	uint32_t priv_flags;	/* private */
	const char *name;	/* tracepoint name, e.g. "Syslog_L4K2" */
	/* private: (fd + 1) << 32 | write index, 0 when not registered;
	 * one word so a writer never pairs an index with another fd */
	uint64_t priv_channel;
	struct ue_tracepoint *priv_next;	/* private: list of used tracepoints */
};

/* Static initializer; name must outlive the tracepoint.  A tracepoint
 * that is not static must be given to ue_tracepoint_unregister() before
 * its memory goes away: the writer and the kernel keep its address. */
#define UE_TRACEPOINT_INIT(name_literal) \
	{ UE_STATE_UNREGISTERED, 0, (name_literal), 0, 0 }

UE_API bool ue_tracepoint_slow(struct ue_tracepoint *tp);

/*
 * True when tp is registered with the kernel through a descriptor the
 * writer holds, so that its events reach a tracer that enables it.  False
 * before its first registration, after one failed (no user_events, no
 * permission, no descriptor) and while the writer recovers a lost
 * descriptor.  Tells an idle tracepoint nobody records from one whose
 * events could not be written at all: one load.
 */
static inline bool ue_tracepoint_registered(const struct ue_tracepoint *tp)
{
	return __atomic_load_n(&tp->priv_channel, __ATOMIC_ACQUIRE) != 0;
}

/*
 * True when a tracer listens to tp.  Idle cost: one relaxed load and a
 * branch.  The first call registers tp (opening user_events_data if
 * needed); after a failure for good the word is 0 and this stays false;
 * after a transient one, calls try again when due (see above).
 */
static inline bool ue_tracepoint_active(struct ue_tracepoint *tp)
{
	uint32_t s = __atomic_load_n(&tp->state, __ATOMIC_RELAXED);

	if (__builtin_expect(s == 0, 1))
		return false;
	if (s == UE_STATE_ENABLED)
		return true;
	return ue_tracepoint_slow(tp);
}

/*
 * Writes one event: iov[0] is the writer's (it puts the write index there,
 * whatever the caller left in it), iov[1..iovcnt) are the event's bytes,
 * starting with the 8-byte eventheader.  Returns 0 when written or when
 * nobody listens (no syscall then), -EMSGSIZE above UE_EVENT_MAX, -EINVAL
 * for fewer than 8 bytes or a bad iovcnt, -ENOTCONN when tp is not
 * registered (also while a lost registration waits for its next retry),
 * or another -errno from the kernel.  Never writes to anything but
 * user_events_data; never allocates; takes no lock unless it must recover
 * a descriptor the program closed or retry a lost registration.
 */
UE_API int ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt);

/*
 * ue_tracepoint_write for a caller that knows the event's length: size
 * is the sum of iov[1..iovcnt)'s lengths (a wrong one is the caller's
 * bug: the kernel still writes what the iovecs hold).  The same results.
 * When tp is traced and the descriptor needs no check, the whole call is
 * a few loads, one test and one writev system call; errno is untouched.
 */
UE_API int ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
				     size_t size);

/*
 * Registers tp now instead of at first use: for tools that hold
 * tracepoints so a tracer can enable them.  flags: 0 or UE_PERSIST.
 * Returns 0 (also when tp is already registered) or -errno; on failure tp
 * is left as it was.
 */
UE_API int ue_tracepoint_register(struct ue_tracepoint *tp, unsigned flags);

/* Unregisters tp and forgets it: call before freeing or unmapping a
 * tracepoint that was used.  Its next use registers it again. */
UE_API void ue_tracepoint_unregister(struct ue_tracepoint *tp);

/*
 * Enablers: more enable bits for a tracepoint's event, anywhere in the
 * process.  The kernel keeps each one set while the event is traced, like
 * the tracepoint's own state word, and several enablers may share a word
 * (one bit each), so one load can answer for many.  The syslog bridge
 * gives each syslog priority its own byte this way (bridge/pri_table.h).
 *
 * An enabler's bit is set while it is not registered, so that a check of
 * it takes the slow path, which calls ue_enabler_add(): the owner sets it
 * before first use, and the writer sets it again whenever it lets the
 * registration go (ue_enabler_remove, ue_close, ue_retry after a
 * failure).  Once registered, the bit is the kernel's.  A registration
 * that failed for good clears it: nothing to do, as for such a failed
 * tracepoint, until ue_retry().  One that failed for a transient reason
 * (see "Failure and retry policy") leaves it set: the checks go on
 * calling ue_enabler_add(), which tries again when due and otherwise
 * returns -ENOTCONN at once, with no lock and no syscall.  The writer keeps the enabler's address, and the
 * kernel writes into the word: both must live until ue_enabler_remove()
 * or ue_close().  Little-endian or not, bit is a bit of the 32-bit word.
 */
struct ue_enabler {
	uint32_t *word;		/* naturally aligned enable word */
	uint8_t bit;		/* 0..31 */
	uint8_t priv_flags;	/* private */
	struct ue_enabler *priv_next;	/* private: list of used enablers */
};

/* Private: the priv_flags of an enabler waiting for a retry. */
#define UE_ENABLER_RETRY 0x4u

/*
 * Makes e an enabler of tp's event, registering tp first if that has not
 * been tried.  Returns 0 at once, with no lock and no syscall, when e is
 * already registered (whatever tracepoint it was registered for); else
 * 0 or -errno (the bit then cleared, or left set for a retry).  Give e a new word or bit only
 * while it is not registered.
 */
UE_API int ue_enabler_add(struct ue_tracepoint *tp, struct ue_enabler *e);

/* True while e is registered, or failed for good until ue_retry(): then
 * ue_enabler_add returns at once.  False while it waits for a retry.
 * One load, for callers that would otherwise work out e's tracepoint
 * first. */
static inline bool ue_enabler_done(const struct ue_enabler *e)
{
	uint8_t f = __atomic_load_n(&e->priv_flags, __ATOMIC_ACQUIRE);

	/* f != 0 && !(f & UE_ENABLER_RETRY) in one compare: the writer's
	 * other flags are the two bits below UE_ENABLER_RETRY. */
	return (uint8_t)(f - 1) < UE_ENABLER_RETRY - 1;
}

/* Unregisters e (the kernel stops writing its bit) and sets its bit
 * again.  Nothing when e is not registered. */
UE_API void ue_enabler_remove(struct ue_enabler *e);

/* Unregisters every tracepoint and enabler and closes the descriptor.
 * Tracepoints register again at their next use.  A remembered failure is kept. */
UE_API void ue_close(void);

/* Forgets a previous failure: the next first use tries again, and failed
 * tracepoints go back to "not registered".  Returns 0. */
UE_API int ue_retry(void);

/* For a process whose credentials changed (setuid(), setgroups(),
 * capset()...; libehsyslog.so calls it from its wrappers of those):
 * unregisters everything and closes the descriptor as ue_close() does,
 * and forgets a remembered failure as ue_retry() does.  The next use of
 * a tracepoint opens user_events_data again, with the credentials the
 * process has then: a worker that dropped its privileges does not keep
 * a descriptor it could not open itself. */
UE_API void ue_credentials_changed(void);

enum ue_status_state {
	UE_STATUS_UNUSED = 0,		/* nothing tried yet */
	UE_STATUS_OK,			/* user_events_data open */
	UE_STATUS_NO_USER_EVENTS,	/* tracefs found, no user_events_data */
	UE_STATUS_NO_PERMISSION,	/* EACCES/EPERM opening it */
	UE_STATUS_NO_TRACEFS,		/* no tracefs mounted anywhere */
	UE_STATUS_ERROR,		/* anything else; see error */
};

#define UE_PATH_MAX 256

struct ue_status {
	int state;		/* enum ue_status_state */
	int error;		/* errno of the failure, or of the last failed registration */
	char path[UE_PATH_MAX];	/* user_events_data in use or last tried; "" if none */
	unsigned registered;	/* tracepoints registered now */
	unsigned failed;	/* tracepoints whose registration failed */
	unsigned long oversize;	/* events refused for exceeding UE_EVENT_MAX */
};

UE_API void ue_status(struct ue_status *out);

/* "ok", "no user_events", ...: constant English text for a state. */
UE_API const char *ue_status_string(int state);

/*
 * For tools that manage tracepoints on a descriptor of their own rather
 * than the writer's (deleting events, measuring the kernel's cost).
 *
 * ue_tracefs_dir: writes into buf the tracefs directory the writer opens
 * user_events_data in: $EHSYSLOG_TRACEFS as above, else
 * /sys/kernel/tracing when user_events_data exists there (even if this
 * process may not open it), else the first tracefs mount in /proc/mounts,
 * else <debugfs>/tracing when it exists.  Returns 0, -ENOENT when there
 * is none, or -ENAMETOOLONG when it does not fit cap bytes.  Opens
 * nothing but /proc/mounts; no allocation, no lock, no stdio; errno
 * preserved.  Async-signal-safe but for secure_getenv(), which glibc
 * implements without locks.
 */
UE_API int ue_tracefs_dir(char *buf, size_t cap);

/*
 * ue_kernel_register: registers the EventHeader event name (as a
 * tracepoint's first use would) on fd, an open user_events_data, the
 * kernel to keep bit (0..31) of *word set while the event is traced;
 * *write_index gets the index that starts every write of it on fd.
 * flags: 0 or UE_PERSIST.  The registration lasts until fd is closed (the
 * writer's tracepoints are not involved: they have their own descriptor).
 * Returns 0, -EINVAL for bad flags or bit, -E2BIG for a name the kernel
 * would refuse as too long, or the kernel's -errno (-EPERM for UE_PERSIST
 * without CAP_PERFMON).  One ioctl, stack buffers: async-signal-safe;
 * errno preserved.
 */
UE_API int ue_kernel_register(int fd, const char *name, uint32_t *word, unsigned bit,
			      unsigned flags, uint32_t *write_index);

/*
 * ue_kernel_delete: deletes the event name from the kernel through fd, an
 * open user_events_data.  Returns 0, -ENOENT when no such event exists,
 * -EBUSY while it is in use (registered through an open descriptor, or
 * enabled by a tracer), -EPERM for a persistent event without
 * CAP_PERFMON, or another -errno from the kernel.  One ioctl:
 * async-signal-safe; errno preserved.
 */
UE_API int ue_kernel_delete(int fd, const char *name);

/*
 * Providers, for new code: one tracepoint per (level, keyword), named
 * "<provider>_L<level>K<keyword><options>".  options: NULL, "" or e.g.
 * "Gmygroup".  ue_provider_open returns NULL (errno set) for an invalid
 * name or no memory.  ue_provider_tracepoint creates the tracepoint once
 * (it may allocate: keep the pointer, do not call it per event) and then
 * returns the same pointer; NULL on an invalid level or no memory.
 * ue_provider_close unregisters and frees its tracepoints; the kernel keeps
 * an event while a descriptor that registered it is open (until ue_close).
 */
struct ue_provider;
UE_API struct ue_provider *ue_provider_open(const char *provider_name, const char *options);
UE_API struct ue_tracepoint *ue_provider_tracepoint(struct ue_provider *p, unsigned level,
						    uint64_t keyword);
UE_API void ue_provider_close(struct ue_provider *p);

#ifdef __cplusplus
}
#endif

#endif /* EHSYSLOG_USER_EVENTS_H */
