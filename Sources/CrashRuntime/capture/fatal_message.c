// Swift's runtime keeps the message of the last fatal error in an atomic pointer whose address
// swift_getFatalErrorMessageBuffer() returns (exported since Swift 5.9). The address is taken
// at install; at crash time the pointer and the text are read without trusting either.
#define _GNU_SOURCE
#include "fatal_message.h"
#include "safe_memory.h"
#include "seam_dump_format.h"

#include <dlfcn.h>
#include <stdint.h>

typedef const void *(*buffer_fn)(void);

static const void *volatile g_message_slot;   // address of the runtime's atomic message pointer

void seam_fatal_message_prepare(void) {
    buffer_fn lookup = (buffer_fn)dlsym(RTLD_DEFAULT, "swift_getFatalErrorMessageBuffer");
    g_message_slot = lookup != NULL ? lookup() : NULL;
}

void seam_write_fatal_error_message(seam_dump_writer *w) {
    static char text[SEAM_FATAL_MESSAGE_MAX];
    uintptr_t message = 0;
    if (g_message_slot == NULL || seam_safe_read(g_message_slot, &message, sizeof message) != 0 || message == 0) return;
    // Read in small pieces so a string that ends just before an unmapped page is still read.
    size_t length = 0;
    while (length < sizeof text) {
        size_t piece = 64 - (message + length) % 64;
        if (piece > sizeof text - length) piece = sizeof text - length;
        if (seam_safe_read((const void *)(message + length), text + length, piece) != 0) break;
        size_t end = length;
        while (end < length + piece && text[end] != '\0') end++;
        int terminated = end < length + piece;
        length = end;
        if (terminated) break;
    }
    if (length > 0) seam_writer_bytes(w, SEAM_DK_FATAL_ERROR_MESSAGE, text, length);
}
