/* SPDX-License-Identifier: MIT */
/*
 * For test programs that play syslog's daemons themselves (hostile_calls,
 * stack-depth, test_socket): a private mount and network namespace with the daemons'
 * sockets bound, the clients' addresses, and signal stacks with a guard.
 * Each function exits 99 with a message naming the failed step.
 */
#ifndef TESTS_LIB_SYSLOG_SOCKETS_H
#define TESTS_LIB_SYSLOG_SOCKETS_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#define SS_DEVLOG "/dev/log"
#define SS_JOURNAL "/run/systemd/journal/socket"

/* Prints "PROGRAM: WHAT: strerror(errno)" and exits 99. */
void ss_die(const char *what) __attribute__((noreturn));

/* Mount and network namespaces of the process's own: tmpfs on /dev and
 * /run (with /run/systemd/journal), the loopback device up.  Root only. */
void ss_namespaces(void);

/* An AF_UNIX address for path; its length. */
socklen_t ss_unix_addr(struct sockaddr_un *a, const char *path);

/* 127.0.0.1:port. */
struct sockaddr_in ss_loopback(unsigned port);

/* A daemon's datagram socket bound at path, non-blocking. */
int ss_listen_unix(const char *path);

/* A client's datagram socket connected to path. */
int ss_client_unix(const char *path);

/* size bytes of signal stack with an unmapped page right below, so that a
 * handler that needs more faults instead of writing over whatever lies
 * below (a malloc'd stack has no guard). */
void *ss_guarded_stack(size_t size);

#endif
