// exit is libc's here (the stub is static in a header this file does not include).
#include <signal.h>
#include <stdlib.h>
static void h(int s) { exit(run_cmd(cmd_fmt)); }  // expect: signal-handler-safety@24; signal-handler-safety@29
void install(void) { signal(SIGSEGV, h); }
