#include <unistd.h>
__attribute__((constructor)) static void f(void) { _exit(3); }
