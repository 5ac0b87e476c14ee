// Seam crash runtime: the C layer of the crash-integration library.
#ifndef SEAM_CRASH_RUNTIME_H
#define SEAM_CRASH_RUNTIME_H
#endif
