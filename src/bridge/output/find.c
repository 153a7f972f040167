/* SPDX-License-Identifier: MIT */
/*
 * Which of descriptors 1 and 2 are a log (output.h), looked at once.
 *
 *   JOURNAL_STREAM=DEV:INO   systemd's, for a service whose output goes
 *                            to journald: the socket's inode, which the
 *                            descriptor must still hold (a program may
 *                            have redirected it since, and its children
 *                            inherit the variable)
 *   a socket whose peer is /run/systemd/journal/stdout
 *                            systemd-cat's, and anything else that
 *                            connected one itself (sd_journal_stream_fd)
 *   EHSYSLOG_STDIO           stdout, stderr, both, or several of them
 *                            separated by commas (ehs_stdio_streams):
 *                            whatever those descriptors are (a pipe, a
 *                            file); ignored in secure execution
 *   the stdio key            the same, from ehsyslog.conf, for a stream
 *                            that is not a character device: the file is
 *                            read (an open) only where the output could
 *                            be a log, not for a terminal or /dev/null
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "bridge/bridge.h"
#include "bridge/config/config_load.h"
#include "bridge/output/output.h"
#include "bridge/output/stream.h"
#include "bridge/sandbox.h"
#include "bridge/socket/socket.h"

#define JOURNAL_STDOUT "/run/systemd/journal/stdout"

/* Where the looking is (output.h): EHS_OUTPUT_UNSEEN, LOOKING while the
 * first call looks, then EHS_OUTPUT_NONE or EHS_OUTPUT_SOME. */
enum { LOOKING = EHS_OUTPUT_SOME + 1 };
int ehs_output_state;

/* Pauses a call waits for another thread's looking at most: far more
 * than it takes (a few system calls, and the writer's first open). */
#define WAIT_MAX (1U << 22)

/* JOURNAL_STREAM's device and inode; false when unset or not two
 * decimal numbers. */
static bool journal_stream(unsigned long long *dev, unsigned long long *ino)
{
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long *to = dev;
	if (!v || !*v)
		return false;
	*dev = *ino = 0;
	for (; *v; v++) {
		if (*v == ':' && to == dev && v[1]) {
			to = ino;
			continue;
		}
		if (*v < '0' || *v > '9' || *to > (~0ULL - 9) / 10)
			return false;
		*to = *to * 10 + (unsigned long long)(*v - '0');
	}
	return to == ino;
}

/* Whether socket fd's peer is journald's stream socket. */
static bool peer_is_journal(int fd)
{
	struct sockaddr_un a;
	socklen_t len = sizeof a;
	if (getpeername(fd, (struct sockaddr *)&a, &len) < 0 || a.sun_family != AF_UNIX)
		return false;
	size_t path = len - offsetof(struct sockaddr_un, sun_path);
	return len > offsetof(struct sockaddr_un, sun_path) && path >= sizeof JOURNAL_STDOUT - 1 &&
	       !memcmp(a.sun_path, JOURNAL_STDOUT, sizeof JOURNAL_STDOUT - 1) &&
	       (path == sizeof JOURNAL_STDOUT - 1 || a.sun_path[sizeof JOURNAL_STDOUT - 1] == '\0');
}

/* Whether fd is a log by the rules above. */
static bool is_log(int fd, bool has_stream, unsigned long long dev, unsigned long long ino)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return false;
	if (S_ISSOCK(st.st_mode) && ((has_stream && st.st_dev == dev && st.st_ino == ino) ||
				     peer_is_journal(fd)))
		return true;
	return ehs_config_stdio(!S_ISCHR(st.st_mode)) & (1U << fd);
}

/* Until another thread's looking is done, so that a write made meanwhile
 * (a second thread's first lines) is seen as the stream's; not inside
 * the library (a handler that interrupted this thread's looking). */
static void wait_looked(void)
{
	for (unsigned i = 0; !ehs_busy && i < WAIT_MAX; i++) {
		if (__atomic_load_n(&ehs_output_state, __ATOMIC_ACQUIRE) != LOOKING)
			return;
		ehs_output_pause();
	}
}

void ehs_output_find(void)
{
	int was = EHS_OUTPUT_UNSEEN;
	if (!__atomic_compare_exchange_n(&ehs_output_state, &was, LOOKING, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (was == LOOKING)
			wait_looked();
		return;
	}
	if (ehs_sandboxed()) {
		__atomic_store_n(&ehs_output_state, EHS_OUTPUT_NONE, __ATOMIC_RELEASE);
		return;
	}
	int saved = errno;
	ehs_busy++;
	unsigned long long dev, ino;
	bool has_stream = journal_stream(&dev, &ino), watched = false;
	for (int fd = 1; fd <= 2; fd++)
		if (is_log(fd, has_stream, dev, ino) && ehs_output_streams_mapped() &&
		    ehs_sock_watch(fd, EHS_SOCK_OUTPUT))
			watched = true;
	if (watched)
		ehs_output_prepare();
	ehs_busy--;
	__atomic_store_n(&ehs_output_state, watched ? EHS_OUTPUT_SOME : EHS_OUTPUT_NONE,
			 __ATOMIC_RELEASE);
	errno = saved;
}
