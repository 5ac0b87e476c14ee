// Issue 29, cause 5: a stray file-scope call becomes an invalid VarDecl 'report_it'; calls of
// report_it elsewhere in the file are still calls.
#include <signal.h>
#include <stdlib.h>
report_it(LEVEL_A, "x");
void report_it(int a, const char *s) { void *p = malloc(8); (void)p; }  // expect: signal-handler-safety@50
static void on_usr1(int sig) { report_it(2, UNKNOWN_LEVEL); }
void install() { signal(SIGUSR1, on_usr1); }
