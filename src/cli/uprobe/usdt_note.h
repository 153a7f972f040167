/* SPDX-License-Identifier: MIT */
/*
 * The USDT probes of an ELF file: SystemTap's .note.stapsdt notes
 * (<sys/sdt.h>), read with libelf.  A uprobe takes file offsets, the
 * notes hold addresses: each is mapped through the PT_LOAD segment that
 * holds it.
 */
#ifndef EHSYSLOG_CLI_USDT_NOTE_H
#define EHSYSLOG_CLI_USDT_NOTE_H

#include <stddef.h>
#include <stdint.h>

/* The note argument strings this module keeps: far above six arguments. */
#define USDT_ARGS_MAX 256
#define USDT_NAME_MAX 64

struct usdt_probe {
	char name[USDT_NAME_MAX];
	uint64_t offset;	/* of the probe's instruction in the file */
	uint64_t semaphore;	/* of its semaphore in the file; 0: none */
	char args[USDT_ARGS_MAX];	/* "8@%rdi -4@%edx ...", as the note says */
};

struct usdt_file {
	unsigned machine;	/* e_machine: EM_X86_64, EM_AARCH64, ... */
	size_t count;
	struct usdt_probe *probes;	/* malloc'ed */
};

/*
 * The probes of provider in the ELF file at path into *f (free with
 * usdt_file_free).  0, or -1 with the reason in err: a file that is not
 * ELF, has no such probe, or a note that does not fit the file.
 */
int usdt_file_read(const char *path, const char *provider, struct usdt_file *f,
		   char *err, size_t errlen);

void usdt_file_free(struct usdt_file *f);

/* The probe called name, or NULL. */
const struct usdt_probe *usdt_file_find(const struct usdt_file *f, const char *name);

#endif
