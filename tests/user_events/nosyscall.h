/* SPDX-License-Identifier: MIT */
/* Test helper: run a function in a child that dies on its first syscall. */
#ifndef TESTS_NOSYSCALL_H
#define TESTS_NOSYSCALL_H

#include <stdbool.h>

/*
 * Forks; the child installs a seccomp filter that kills it on any syscall
 * but exit_group, calls fn(arg), and exits 0.  Returns true when the child
 * exited 0 (fn made no syscall), false when it was killed.
 */
bool run_without_syscalls(void (*fn)(void *), void *arg);

#endif
