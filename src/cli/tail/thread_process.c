/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/tail/thread_process.h"

#define SLOTS 64
#define KEEP_NS (5 * 1000000000LL)

/* Where saved_tgids and saved_cmdlines are, or NULL. */
static const char *tracing_dir;

static struct slot {
	uint32_t tid;
	int64_t read_ns;
	bool known;
	struct thread_process p;
} slots[SLOTS];

/* Up to cap - 1 bytes of path, NUL-terminated; their count, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

bool thread_process_tgid(const char *s, size_t n, uint32_t *tgid)
{
	static const char key[] = "Tgid:";
	uint64_t v = 0;
	size_t i;

	for (i = 0; i + sizeof key - 1 <= n; i++) {
		if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, key, sizeof key - 1) == 0)
			break;
	}
	if (i + sizeof key - 1 > n)
		return false;
	for (i += sizeof key - 1; i < n && (s[i] == '\t' || s[i] == ' '); i++)
		;
	if (i == n || s[i] < '0' || s[i] > '9')
		return false;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		if ((v = v * 10 + (uint64_t)(s[i] - '0')) > UINT32_MAX)
			return false;
	if (i < n && s[i] != '\n')
		return false;
	*tgid = (uint32_t)v;
	return v != 0;
}

bool thread_process_exe_name(const char *target, char *out, size_t cap)
{
	static const char deleted[] = " (deleted)";
	const char *slash = strrchr(target, '/');
	const char *base = slash != NULL ? slash + 1 : target;
	size_t n = strlen(base);

	if (n >= sizeof deleted - 1 && strcmp(base + n - (sizeof deleted - 1), deleted) == 0)
		n -= sizeof deleted - 1;
	if (n == 0 || n >= cap)
		return false;
	memcpy(out, base, n);
	out[n] = '\0';
	return true;
}

/* The executable's name of process pid into p, else its comm, else "". */
static void read_executable(uint32_t pid, struct thread_process *p)
{
	char path[32], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%u/exe", (unsigned)pid);
	n = readlink(path, target, sizeof target - 1);
	if (n > 0) {
		target[n] = '\0';
		if (thread_process_exe_name(target, p->executable, sizeof p->executable))
			return;
	}
	snprintf(path, sizeof path, "/proc/%u/comm", (unsigned)pid);
	n = read_small(path, p->executable, sizeof p->executable);
	if (n > 0 && p->executable[n - 1] == '\n')
		p->executable[--n] = '\0';
	if (n < 0)
		p->executable[0] = '\0';
}

/* The value of the "KEY VALUE" line of file whose key is key, into
 * value (cap bytes, NUL-terminated): saved_tgids' "TID TGID" and
 * saved_cmdlines' "PID COMM" lines.  False when there is none. */
static bool kernel_line(const char *file, uint32_t key, char *value, size_t cap)
{
	char path[PATH_MAX], line[64 + NAME_MAX];
	bool found = false;
	FILE *f;

	if (tracing_dir == NULL ||
	    snprintf(path, sizeof path, "%s/%s", tracing_dir, file) >= (int)sizeof path ||
	    (f = fopen(path, "re")) == NULL)
		return false;
	while (!found && fgets(line, sizeof line, f) != NULL) {
		char *end;
		unsigned long k = strtoul(line, &end, 10);
		size_t n;

		if (end == line || *end != ' ' || k != key)
			continue;
		n = strcspn(++end, "\n");
		if (n > 0 && n < cap) {
			memcpy(value, end, n);
			value[n] = '\0';
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* What the kernel kept of a thread that is gone: its process (saved_tgids,
 * which the readers' record-tgid fills) and that process's name as its
 * first thread last ran (saved_cmdlines: the comm, 15 bytes at most). */
static bool kernel_process(uint32_t tid, struct thread_process *p)
{
	char v[32];
	char *end;
	unsigned long tgid;

	if (!kernel_line("saved_tgids", tid, v, sizeof v))
		return false;
	tgid = strtoul(v, &end, 10);
	if (end == v || *end != '\0' || tgid == 0 || tgid > UINT32_MAX)
		return false;
	p->pid = (uint32_t)tgid;
	if (!kernel_line("saved_cmdlines", p->pid, p->executable, sizeof p->executable) ||
	    strcmp(p->executable, "<...>") == 0)
		p->executable[0] = '\0';
	return true;
}

/* The inode of the initial PID namespace (PROC_PID_INIT_INO). */
#define INITIAL_PID_NS 4026531836ULL

/* Whether this /proc numbers processes as the trace does: the trace's
 * ids are the initial PID namespace's, so in another (a container) a
 * number in /proc may be another process, and only what the kernel kept
 * is used.  A kernel without PID namespaces has one. */
static bool proc_has_trace_ids(void)
{
	static int answer = -1;
	struct stat st;

	if (answer < 0)
		answer = stat("/proc/self/ns/pid", &st) != 0 || st.st_ino == INITIAL_PID_NS;
	return answer;
}

static bool read_process(uint32_t tid, struct thread_process *p)
{
	char path[32], status[1024];
	ssize_t n;

	if (!proc_has_trace_ids())
		return kernel_process(tid, p);
	snprintf(path, sizeof path, "/proc/%u/status", (unsigned)tid);
	n = read_small(path, status, sizeof status);
	if (n < 0 || !thread_process_tgid(status, (size_t)n, &p->pid))
		return kernel_process(tid, p);
	read_executable(p->pid, p);
	return true;
}

void thread_process_kernel(const char *dir)
{
	tracing_dir = dir;
}

const struct thread_process *thread_process(uint32_t tid, int64_t now_ns)
{
	struct slot *s = &slots[tid % SLOTS];

	if (s->read_ns == 0 || s->tid != tid || now_ns - s->read_ns > KEEP_NS) {
		s->tid = tid;
		s->read_ns = now_ns ? now_ns : 1;
		s->known = read_process(tid, &s->p);
	}
	return s->known ? &s->p : NULL;
}
