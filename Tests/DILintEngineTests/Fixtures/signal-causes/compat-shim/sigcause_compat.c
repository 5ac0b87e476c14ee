// Issue 29, cause 2: a compatibility snprintf compiled only where the platform lacks one; the run
// cannot show that branch is taken, so a call of snprintf keeps libc's meaning.
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#if !defined(HAVE_SNPRINTF)
int snprintf(char *buf, size_t size, const char *fmt, ...) {
#ifdef DEBUG
    fprintf(stderr, "compat snprintf\n");
#endif
    char *tmp = malloc(size);
    free(tmp);
    return 0;
}
#endif
