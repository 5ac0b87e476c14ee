// A C handler calling a function that a Swift file of the run exports with @_cdecl.
#include <signal.h>

void lc_swift_crash_callback(void);

static void sigfx_on_user_signal(int sig) {
    lc_swift_crash_callback();                          // expect: signal-handler-safety@5
}

void sigfx_install_user(void) { signal(SIGUSR1, sigfx_on_user_signal); }
