/* The target of tests/kernel/stock_guest.sh's uprobe: stock_hit() is
 * called with 1, 2, ..., argv[1] (default 3), each call a hit. */
#include <stdlib.h>

/* noinline and used: the probe needs the call and the symbol. */
__attribute__((noinline, used)) int stock_hit(int n);

__attribute__((noinline, used)) int stock_hit(int n)
{
	__asm__ volatile("" : : "r"(n) : "memory");
	return n;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 3;
	int sum = 0;

	for (int i = 1; i <= count; i++)
		sum += stock_hit(i);
	return sum == count * (count + 1) / 2 ? 0 : 1;
}
