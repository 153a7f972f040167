/* See kernel-tracepoint.h. */
#include <dirent.h>
#include <err.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog/settings.h>
#include <ehsyslog/user_events.h>
#include <eventheader/eventheader.h>

#include "kernel-tracepoint.h"

void bench_info_tracepoint(char *name, size_t cap, int facility)
{
	struct ehs_config config;

	ehs_config_defaults(&config);
	ehs_config_apply_env(&config, NULL, NULL);
	int e = eh_tracepoint_name(name, cap, config.provider, ehs_severity_level(LOG_INFO),
				   ehs_keyword((unsigned)LOG_FAC(facility)), NULL);
	if (e != 0)
		errx(1, "no tracepoint name for provider %s: %s", config.provider, eh_strerror(e));
}

void bench_nofile_room(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		err(1, "getrlimit");
	if (rl.rlim_cur != rl.rlim_max || rl.rlim_cur <= 128)
		return;
	rl.rlim_cur -= 64;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		err(1, "setrlimit");
}

void bench_tracefs_enable(const char *name)
{
	char path[EH_NAME_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), BENCH_TRACEFS "/events/user_events/%s/enable", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		err(1, "%s", path);
	if (write(fd, "1", 1) != 1)
		err(1, "enabling %s", name);
	close(fd);
}

int bench_register_own(const char *name, uint32_t *word, uint32_t *write_index)
{
	int fd = open(BENCH_TRACEFS "/user_events_data", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		err(1, BENCH_TRACEFS "/user_events_data");
	int e = ue_kernel_register(fd, name, word, 0, 0, write_index);
	if (e < 0)
		errx(1, "registering %s on a descriptor of our own: %s", name, strerror(-e));
	return fd;
}

void bench_writer_report(int not_this)
{
	char fds[256] = "", link[PATH_MAX], path[64];
	size_t used = 0;
	struct rlimit rl;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	while (d && (de = readdir(d)) != NULL) {
		int fd = atoi(de->d_name);
		if (de->d_name[0] == '.' || fd == not_this || fd == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = '\0';
		size_t l = strlen(link), want = strlen("/user_events_data");
		if (l >= want && strcmp(link + l - want, "/user_events_data") == 0 &&
		    used < sizeof(fds) - 16)
			used += (size_t)snprintf(fds + used, sizeof(fds) - used, " %d", fd);
	}
	if (d)
		closedir(d);
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		err(1, "getrlimit");
	fprintf(stderr, "writer: user_events_data at descriptor%s; RLIMIT_NOFILE soft %llu hard %llu\n",
		used ? fds : " (none)", (unsigned long long)rl.rlim_cur,
		(unsigned long long)rl.rlim_max);
}
