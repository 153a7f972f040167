/* SPDX-License-Identifier: MIT */
/* Forks, and the child exits 3: whether fork() works where the tests
 * run (tests/qemu-run asks it under qemu user emulation). */
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(3);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 3 ? 0 : 1;
}
