#include <unistd.h>
__attribute__((constructor)) static void f(void) { write(2, "noise at start-up\n", 18); }
