/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/preload/elf_library.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The linker's symbol for this program's own ELF header: what ld.so
 * checks a preloaded library against is the program's class and
 * machine, and this program was built for the same machine. */
extern const ElfW(Ehdr) __ehdr_start;

static int unfit(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	errno = 0;
	return -1;
}

/* errno's message in why, errno kept; fd (unless -1) closed. */
static int cannot_read(char *why, size_t whylen, int fd)
{
	int e = errno;

	snprintf(why, whylen, "%s", strerror(e));
	if (fd >= 0)
		close(fd);
	errno = e;
	return -1;
}

int elf_library_check(const char *path, char *why, size_t whylen)
{
	const ElfW(Ehdr) *self = &__ehdr_start;
	ElfW(Ehdr) h;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return cannot_read(why, whylen, -1);
	do
		n = pread(fd, &h, sizeof h, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return cannot_read(why, whylen, fd);
	close(fd);
	if ((size_t)n < EI_NIDENT || memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
		return unfit(why, whylen, "not an ELF file");
	if (h.e_ident[EI_CLASS] != self->e_ident[EI_CLASS])
		return unfit(why, whylen, h.e_ident[EI_CLASS] == ELFCLASS32 ?
			     "a 32-bit ELF file, for 64-bit programs here" :
			     "not an ELF file of this system's class (32 or 64 bits)");
	if (h.e_ident[EI_DATA] != self->e_ident[EI_DATA])
		return unfit(why, whylen, "an ELF file of the other byte order");
	if ((size_t)n < sizeof h)
		return unfit(why, whylen, "an ELF file cut short");
	if (h.e_type != ET_DYN)
		return unfit(why, whylen, "an ELF file that is not a shared object");
	if (h.e_machine != self->e_machine)
		return unfit(why, whylen, "a shared object for another machine");
	return 0;
}
