// Reads of arbitrary addresses that report a bad pointer instead of faulting.
#ifndef SEAM_SAFE_MEMORY_H
#define SEAM_SAFE_MEMORY_H

#include <stddef.h>

/// Chooses the read method (process_vm_readv, else a pipe) at install. Not signal-safe.
int seam_safe_memory_prepare(void);
/// Copies length bytes from address into out. Returns 0, or -1 when any byte is unreadable.
/// Async-signal-safe.
int seam_safe_read(const void *address, void *out, size_t length);

#endif
