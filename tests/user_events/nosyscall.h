/* SPDX-License-Identifier: MIT */
/* Test helper: count the syscalls a function makes. */
#ifndef TESTS_NOSYSCALL_H
#define TESTS_NOSYSCALL_H

/*
 * Runs fn(arg) in a forked child traced with ptrace (seccomp is not in the
 * test guest's kernel) and returns how many syscalls fn entered, or -1
 * when the child could not be traced.  The child exits afterwards.
 */
long syscalls_made(void (*fn)(void *), void *arg);

#endif
