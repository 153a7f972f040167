/* devlog-listener: a syslog daemon that only drains.
 *
 *   devlog-listener PATH
 *
 * Binds a unix datagram socket at PATH (the benchmark points it at /dev/log
 * inside a private mount namespace) and receives and drops datagrams as
 * fast as it can until killed, so that glibc's syslog() pays what it pays
 * with a live, keeping-up daemon.  The socket file appears only once it is
 * bound and listening, so its existence is the readiness signal. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	static char buf[1 << 17];	/* above the 64 KiB messages of -s */
	int fd, size = 4 << 20;

	if (argc != 2 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: devlog-listener PATH\n");
		return 2;
	}
	strcpy(addr.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		err(1, "socket");
	/* A deep queue absorbs bursts while this process is not scheduled;
	 * the kernel caps it at net.core.rmem_max without an error. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (unlink(argv[1]) < 0 && errno != ENOENT)
		err(1, "unlink %s", argv[1]);
	umask(0);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		err(1, "bind %s", argv[1]);
	for (;;) {
		if (recv(fd, buf, sizeof(buf), 0) < 0 && errno != EINTR)
			err(1, "recv");
	}
}
