#include <stdlib.h>
void args_log_error(const char *fmt, int s) { void *p = malloc(8); (void)p; (void)fmt; (void)s; }  // expect: signal-handler-safety@57
void args_log_info(const char *fmt, int s) { void *p = calloc(1, 8); (void)p; (void)fmt; (void)s; }
void args_cleanup(int s) { free(0); (void)s; }  // expect: signal-handler-safety@28
