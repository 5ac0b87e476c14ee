// The handler named in the tokens (signal() comes through a header the run does not have) is
// this file's own static function, not sigfx_static_other.c's function of the same name.
#include "sigfx_missing_platform.h"
#include <stdlib.h>
static void sigfx_static_on_term(int s) { (void)malloc(1); }  // expect: signal-handler-safety@49
void sigfx_static_install(void) { signal(SIGTERM, sigfx_static_on_term); }
