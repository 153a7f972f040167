/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "preload/cbpf.h"

#include <string.h>

#define SCRATCH 16	/* BPF_MEMWORDS */

/* The 32-bit word of d at byte offset k; false where seccomp refuses
 * the load (unaligned, or past the end). */
static int load(const struct seccomp_data *d, uint32_t k, uint32_t *out)
{
	if (k % 4 || k > sizeof *d - 4)
		return 0;
	memcpy(out, (const char *)d + k, 4);
	return 1;
}

static int alu(uint16_t op, uint32_t *a, uint32_t v)
{
	switch (op) {
	case BPF_ADD: *a += v; return 1;
	case BPF_SUB: *a -= v; return 1;
	case BPF_MUL: *a *= v; return 1;
	case BPF_DIV: if (!v) return 0; *a /= v; return 1;
	case BPF_MOD: if (!v) return 0; *a %= v; return 1;
	case BPF_AND: *a &= v; return 1;
	case BPF_OR: *a |= v; return 1;
	case BPF_XOR: *a ^= v; return 1;
	case BPF_LSH: *a = v < 32 ? *a << v : 0; return 1;
	case BPF_RSH: *a = v < 32 ? *a >> v : 0; return 1;
	case BPF_NEG: *a = -*a; return 1;
	}
	return 0;
}

static int jump_taken(uint16_t op, uint32_t a, uint32_t v, int *taken)
{
	switch (op) {
	case BPF_JEQ: *taken = a == v; return 1;
	case BPF_JGT: *taken = a > v; return 1;
	case BPF_JGE: *taken = a >= v; return 1;
	case BPF_JSET: *taken = (a & v) != 0; return 1;
	}
	return 0;
}

uint32_t ehs_cbpf_run(const struct sock_filter *f, unsigned n, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[SCRATCH] = { 0 };

	/* Jumps only go forward, so this ends within n steps. */
	for (unsigned pc = 0; pc < n; pc++) {
		const struct sock_filter *i = &f[pc];
		uint16_t code = i->code;
		uint32_t src = BPF_SRC(code) == BPF_X ? x : i->k;
		int taken;

		switch (BPF_CLASS(code)) {
		case BPF_LD:
			if (code == (BPF_LD | BPF_W | BPF_ABS)) {
				if (!load(d, i->k, &a))
					return 0;
			} else if (code == (BPF_LD | BPF_W | BPF_LEN)) {
				a = sizeof *d;
			} else if (code == (BPF_LD | BPF_IMM)) {
				a = i->k;
			} else if (code == (BPF_LD | BPF_MEM) && i->k < SCRATCH) {
				a = mem[i->k];
			} else {
				return 0;
			}
			break;
		case BPF_LDX:
			if (code == (BPF_LDX | BPF_W | BPF_LEN))
				x = sizeof *d;
			else if (code == (BPF_LDX | BPF_IMM))
				x = i->k;
			else if (code == (BPF_LDX | BPF_MEM) && i->k < SCRATCH)
				x = mem[i->k];
			else
				return 0;
			break;
		case BPF_ST:
		case BPF_STX:
			if (code != BPF_ST && code != BPF_STX)
				return 0;
			if (i->k >= SCRATCH)
				return 0;
			mem[i->k] = code == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			if (!alu(BPF_OP(code), &a, src))
				return 0;
			break;
		case BPF_JMP:
			if (BPF_OP(code) == BPF_JA) {
				if (i->k >= n - pc - 1)
					return 0;
				pc += i->k;
				break;
			}
			if (!jump_taken(BPF_OP(code), a, src, &taken))
				return 0;
			{
				unsigned off = taken ? i->jt : i->jf;
				if (off >= n - pc - 1)
					return 0;
				pc += off;
			}
			break;
		case BPF_RET:
			if (code == (BPF_RET | BPF_K))
				return i->k;
			if (code == (BPF_RET | BPF_A))
				return a;
			return 0;
		case BPF_MISC:
			if (code == (BPF_MISC | BPF_TAX))
				x = a;
			else if (code == (BPF_MISC | BPF_TXA))
				a = x;
			else
				return 0;
			break;
		default:
			return 0;
		}
	}
	return 0;
}
