// Precision: names of macros defined in the run are not calls, even where the parse could not
// expand them; functions safe in practice on Linux/glibc (isalnum, strtol) are accepted.
#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include "Logging/sigfx_log.h"

static char sigfx_arg[16];

static void sigfx_on_quit(int sig) {
    SIGFX_SAFE_LOG("quit %d", sig);
    SIGFX_TRACE(sigfx_arg, SIGFX_TRACE_DEBUG, "quit");
    if (isalnum((unsigned char)sigfx_arg[0])) _exit((int)strtol(sigfx_arg, NULL, 10));
    _exit(1);
}

void sigfx_install_quit(void) { signal(SIGQUIT, sigfx_on_quit); }
