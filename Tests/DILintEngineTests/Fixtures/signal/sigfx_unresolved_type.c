// Cause 5: a statement using a type from a header the parse cannot see is dropped from the AST;
// the calls in it and after it are still followed.
#include <signal.h>
#include <stdlib.h>
#include "missing/sigfx_state.h"

static void sigfx_record(void *state, int sig) { free(state); }  // expect: signal-handler-safety@50

static void sigfx_on_usr2(int sig) {
    SigfxState_t *st = sigfx_current_state();  // expect: signal-handler-safety@24
    sigfx_record(st, sig);
}

void sigfx_install_usr2(void) { signal(SIGUSR2, sigfx_on_usr2); }
