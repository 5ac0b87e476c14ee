// A static function with a handler's name in another file: a main-loop callback, never a handler.
#include <stdio.h>
static void sigfx_static_on_term(int s) { printf("main loop\n"); }
void sigfx_static_run(void (*cb)(int)) { cb(0); }
void sigfx_static_start(void) { sigfx_static_run(sigfx_static_on_term); }
