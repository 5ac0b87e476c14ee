#include <signal.h>
#include <stdio.h>
#include <unistd.h>
static char line[32];
static void on_hup(int s) { int n = snprintf(line, sizeof line, "%d", s); write(2, line, (size_t)n); }  // expect: signal-handler-safety@37
void install_hup(void) { signal(SIGHUP, on_hup); }
