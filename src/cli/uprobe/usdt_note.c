/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/uprobe/usdt_note.h"

/* <sys/sdt.h>: notes of owner "stapsdt", type 3; a program prelinked
 * elsewhere is told by the .stapsdt.base section's address. */
#define NOTE_OWNER "stapsdt"
#define NT_STAPSDT 3
#define NOTE_SECTION ".note.stapsdt"
#define BASE_SECTION ".stapsdt.base"

struct reader {
	Elf *elf;
	size_t nphdr;
	bool have_base;
	uint64_t base;	/* .stapsdt.base's address */
	char *err;
	size_t errlen;
};

/* The file offset of address addr, through the PT_LOAD segment whose
 * file bytes hold it (a semaphore in .bss would have none: the kernel
 * finds a reference counter through the file's mapping). */
static bool file_offset(const struct reader *r, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < r->nphdr; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(r->elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

static uint64_t word(const uint8_t *p, size_t size, bool big)
{
	uint64_t v = 0;

	for (size_t i = 0; i < size; i++)
		v = big ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	return v;
}

/* One note's descriptor: pc, base, semaphore (words of the ELF class),
 * then provider, name and arguments, each NUL-terminated.  1 and *p
 * filled if it is provider's probe, 0 if another's, -1 if malformed. */
static int parse_note(struct reader *r, const uint8_t *desc, size_t len, const char *provider,
		      struct usdt_probe *p)
{
	size_t wsize = gelf_getclass(r->elf) == ELFCLASS32 ? 4 : 8;
	bool big = elf_getident(r->elf, NULL)[EI_DATA] == ELFDATA2MSB;
	const char *prov, *name, *args, *end = (const char *)desc + len;
	uint64_t pc, base, sem;

	if (len < 3 * wsize + 3)
		return -1;
	pc = word(desc, wsize, big);
	base = word(desc + wsize, wsize, big);
	sem = word(desc + 2 * wsize, wsize, big);
	prov = (const char *)desc + 3 * wsize;
	/* Each string ends before the descriptor does. */
	name = memchr(prov, '\0', (size_t)(end - prov));
	if (name == NULL || ++name == end || (args = memchr(name, '\0', (size_t)(end - name))) == NULL ||
	    ++args == end || memchr(args, '\0', (size_t)(end - args)) == NULL)
		return -1;
	if (strcmp(prov, provider) != 0)
		return 0;
	if (strlen(name) >= sizeof p->name || strlen(args) >= sizeof p->args)
		return -1;
	/* Prelinked to another address than the notes were written for. */
	if (r->have_base)
		pc += r->base - base;
	memset(p, 0, sizeof *p);
	strcpy(p->name, name);
	strcpy(p->args, args);
	if (!file_offset(r, pc, &p->offset)) {
		snprintf(r->err, r->errlen, "probe %s:%s at 0x%llx lies in no loaded segment",
			 provider, name, (unsigned long long)pc);
		return -2;
	}
	if (sem != 0 && !file_offset(r, sem, &p->semaphore)) {
		snprintf(r->err, r->errlen, "the semaphore of probe %s:%s at 0x%llx lies in no "
			 "loaded segment's file bytes", provider, name, (unsigned long long)sem);
		return -2;
	}
	return 1;
}

static int add_probe(struct usdt_file *f, const struct usdt_probe *p)
{
	struct usdt_probe *grown = realloc(f->probes, (f->count + 1) * sizeof *grown);

	if (grown == NULL)
		return -1;
	f->probes = grown;
	f->probes[f->count++] = *p;
	return 0;
}

static Elf_Scn *section(Elf *elf, const char *want, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *s = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((s = elf_nextscn(elf, s)) != NULL) {
		const char *name;

		if (gelf_getshdr(s, sh) == NULL)
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name != NULL && strcmp(name, want) == 0)
			return s;
	}
	return NULL;
}

static int read_notes(struct reader *r, const char *provider, struct usdt_file *f)
{
	GElf_Shdr sh;
	Elf_Scn *s;
	Elf_Data *data;
	size_t at = 0, name_off, desc_off;
	GElf_Nhdr nh;

	if (section(r->elf, BASE_SECTION, &sh) != NULL) {
		r->have_base = true;
		r->base = sh.sh_addr;
	}
	s = section(r->elf, NOTE_SECTION, &sh);
	if (s == NULL || sh.sh_type != SHT_NOTE) {
		snprintf(r->err, r->errlen, "no USDT probes (no %s section)", NOTE_SECTION);
		return -1;
	}
	data = elf_getdata(s, NULL);
	if (data == NULL) {
		snprintf(r->err, r->errlen, "cannot read %s: %s", NOTE_SECTION, elf_errmsg(-1));
		return -1;
	}
	while ((at = gelf_getnote(data, at, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)data->d_buf + name_off;
		struct usdt_probe p;
		int rc;

		if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof NOTE_OWNER ||
		    memcmp(owner, NOTE_OWNER, sizeof NOTE_OWNER) != 0)
			continue;
		rc = parse_note(r, (const uint8_t *)data->d_buf + desc_off, nh.n_descsz, provider, &p);
		if (rc == -1)
			snprintf(r->err, r->errlen, "a malformed %s note", NOTE_SECTION);
		if (rc < 0)
			return -1;
		if (rc == 1 && add_probe(f, &p) < 0) {
			snprintf(r->err, r->errlen, "out of memory");
			return -1;
		}
	}
	if (f->count == 0) {
		snprintf(r->err, r->errlen, "no USDT probes of provider %s", provider);
		return -1;
	}
	return 0;
}

int usdt_file_read(const char *path, const char *provider, struct usdt_file *f,
		   char *err, size_t errlen)
{
	struct reader r = { .err = err, .errlen = errlen };
	struct stat st;
	GElf_Ehdr eh;
	int fd, rc = -1;

	memset(f, 0, sizeof *f);
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	/* Not blocking: a FIFO or device at the path (or mapped, for the
	 * readers' search of copies) is refused, not waited on. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		close(fd);
		return -1;
	}
	r.elf = elf_begin(fd, ELF_C_READ, NULL);
	if (r.elf == NULL || elf_kind(r.elf) != ELF_K_ELF || gelf_getehdr(r.elf, &eh) == NULL) {
		snprintf(err, errlen, "not an ELF file");
	} else if (elf_getphdrnum(r.elf, &r.nphdr) != 0) {
		snprintf(err, errlen, "no program headers: %s", elf_errmsg(-1));
	} else {
		f->machine = eh.e_machine;
		rc = read_notes(&r, provider, f);
	}
	if (r.elf != NULL)
		elf_end(r.elf);
	close(fd);
	if (rc < 0)
		usdt_file_free(f);
	return rc;
}

void usdt_file_free(struct usdt_file *f)
{
	free(f->probes);
	f->probes = NULL;
	f->count = 0;
}

const struct usdt_probe *usdt_file_find(const struct usdt_file *f, const char *name)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->probes[i].name, name) == 0)
			return &f->probes[i];
	return NULL;
}
