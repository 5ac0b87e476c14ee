// Cause 6: stores written inside macro arguments register handlers, for a macro the parse
// cannot see and for one it expands.
#include <csignal>
#include <cstdlib>
#include "missing/sigfx_debug.h"

#define SIGFX_WHEN_TRACING(statement) statement

static void sigfx_debug_handler(int sig) { std::exit(3); }  // expect: signal-handler-safety@44
static void sigfx_trace_handler(int sig) { std::exit(4); }  // expect: signal-handler-safety@44

void sigfx_install_debug() {
    struct sigaction act = {};
    SIGFX_ON_DEBUG(act.sa_handler = sigfx_debug_handler);
    SIGFX_WHEN_TRACING(act.sa_handler = sigfx_trace_handler);
    sigaction(SIGUSR2, &act, nullptr);
}
