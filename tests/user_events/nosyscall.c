/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosyscall.h"

/* Syscall numbers no kernel has: they mark where fn starts and ends. */
#define MARK_START 100000
#define MARK_END 100001

long syscalls_made(void (*fn)(void *), void *arg)
{
	struct __ptrace_syscall_info info;
	long count = 0;
	int counting = 0, status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
			_exit(2);
		raise(SIGSTOP);
		syscall(MARK_START);
		fn(arg);
		syscall(MARK_END);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, 0,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	for (int sig = 0;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, sig) < 0 || waitpid(pid, &status, 0) != pid)
			return -1;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		sig = 0;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(status);	/* a real signal: deliver it */
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof info, &info) <= 0)
			return -1;
		if (info.op != PTRACE_SYSCALL_INFO_ENTRY)
			continue;
		if (info.entry.nr == MARK_START)
			counting = 1;
		else if (info.entry.nr == MARK_END)
			counting = 0;
		else if (counting)
			count++;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? count : -1;
}
