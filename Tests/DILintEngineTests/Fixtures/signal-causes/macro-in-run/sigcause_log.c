#include <stdarg.h>
#include <stdio.h>
void app_log_write(int tag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);  // expect: signal-handler-safety@5
    va_end(ap);
}
