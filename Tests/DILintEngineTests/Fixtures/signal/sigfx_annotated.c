// Handlers named by annotation and by the fixtures' config (rules.signal-handler-safety.handlers).
#include <stdlib.h>
#include <string.h>

struct sigfx_services { long (*now)(void); };
struct sigfx_services *container_shared(void);
typedef long (*sigfx_clock_fn)(void);

static long sigfx_monotonic(void) { return 0; }
static sigfx_clock_fn sigfx_clock;
void sigfx_set_clock(sigfx_clock_fn fn) { sigfx_clock = fn; }     // set from outside: calls through it are not followed

// di-lint:signal-handler
void sigfx_crash_hook(int sig) {
    long t = sigfx_clock ? sigfx_clock() : sigfx_monotonic();
    long u = container_shared()->now();              // expect: container-access@14 container_shared()->now; signal-handler-safety@14
    (void)t; (void)u;
}

void sigfx_configured_hook(void) {
    char *p = strdup("x");                            // expect: signal-handler-safety@15
    free(p);                                          // expect: signal-handler-safety@5
}
