// A #define whose body ends in a call, followed by a function definition, is no definition of
// that call's callee: fprintf stays the C library's and is reported.
#include <signal.h>
#include <stdio.h>
#define SIGFX_LOGX(x) fprintf(stdout, "%d", x)
void sigfx_after_define(void) { }
static void sigfx_define_handler(int s) { fprintf(stderr, "x"); }  // expect: signal-handler-safety@43
void sigfx_define_install(void) { signal(SIGUSR1, sigfx_define_handler); }
