// Shared by the signal fixtures: the handler in sigfx_install.c calls into sigfx_writer.c.
#include <stddef.h>

void sigfx_write_report(int sig);
size_t sigfx_format_number(char *out, long value);
void sigfx_flush_objc(void);
typedef void (*sigfx_step_fn)(int sig);
