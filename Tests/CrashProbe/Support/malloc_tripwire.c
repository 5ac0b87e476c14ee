// Allocation tripwire: interposes the allocator for the whole CrashProbe process and kills
// it with a distinctive status if anything allocates while the crash handler is writing.
#include "crash_probe_support.h"
#include "seam_capture.h"

#include <stddef.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static volatile unsigned long g_allocations;
static volatile int g_disabled;

void crash_probe_tripwire_disable(void) { g_disabled = 1; }

static void check(void) {
    g_allocations++;
    if (!g_disabled && seam_capture_handler_active()) {
        static const char message[] = "CRASH-PROBE: allocator called inside the crash handler\n";
        write(2, message, sizeof message - 1);
        _exit(CRASH_PROBE_ALLOCATED_IN_HANDLER);
    }
}

unsigned long crash_probe_allocation_count(void) { return g_allocations; }

void *malloc(size_t size) { check(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { check(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { check(); return __libc_realloc(pointer, size); }
void free(void *pointer) { if (pointer) check(); __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { check(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { check(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    check();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return 12;   // ENOMEM
    *out = memory;
    return 0;
}
