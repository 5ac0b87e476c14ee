// Cause 4: a handler and its registration under `#if` on a macro the parse does not know are
// read from the tokens; so is a function whose parameter type comes from a missing header.
#include <signal.h>
#include <stdlib.h>
#include "missing/sigfx_platform.h"

#if SIGFX_UNIX
static void sigfx_on_term(int sig) { sigfx_term_cleanup(NULL, sig); }
#endif

static void sigfx_term_cleanup(SigfxContext *context, int sig) {
    free(context);  // expect: signal-handler-safety@5
}

void sigfx_install_term(void) {
#if SIGFX_UNIX
    signal(SIGTERM, sigfx_on_term);
#endif
}
