// Issue 29, cause 1a: the parse saw the macro's definition, not its argument's name. The statement
// is read from the tokens; LOG is expanded there and its call of log_real followed.
#include <signal.h>
#include <stdlib.h>
#define LOG(fmt, ...) log_real(TAG_UNKNOWN, fmt, __VA_ARGS__)
#define LOG_TWICE(fmt, ...) do { LOG(fmt, __VA_ARGS__); CALL_WITH(free, 0); } while (0)
#define CALL_WITH(fn, arg) fn(arg)
void log_real(int tag, const char *fmt, ...) { void *p = malloc(8); (void)p; }  // expect: signal-handler-safety@58
static void h(int s) { LOG("x %d", s); }
static void h2(int s) { LOG_TWICE("y %d", s + UNKNOWN_OFFSET); }  // expect: signal-handler-safety@25
void install(void) { signal(SIGINT, h); signal(SIGTERM, h2); }
