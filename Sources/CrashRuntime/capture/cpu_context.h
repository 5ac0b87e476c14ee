// Registers and the crashing thread's call stack, taken from the signal's ucontext.
#ifndef SEAM_CPU_CONTEXT_H
#define SEAM_CPU_CONTEXT_H

#include "dump_writer.h"
#include "module_list.h"

#include <stddef.h>
#include <stdint.h>

#define SEAM_MAX_FRAMES 128

typedef struct seam_stack_trace {
    size_t count;
    uintptr_t address[SEAM_MAX_FRAMES];
    uint8_t trust[SEAM_MAX_FRAMES];   // seam_dump_frame_trust
} seam_stack_trace;

/// Writes ARCHITECTURE and the REGISTERS array for the interrupted context.
void seam_write_registers(seam_dump_writer *w, const void *ucontext);
/// Walks the stack of the interrupted context: the program counter, return addresses found
/// by scanning the words below the first frame pointer, then the frame-pointer chain.
/// Every stack and code read goes through seam_safe_read.
void seam_walk_stack(const void *ucontext, const seam_module_set *modules, seam_stack_trace *out);

#endif
