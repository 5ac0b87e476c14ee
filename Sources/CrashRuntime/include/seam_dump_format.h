// The intermediate dump format written by the crash handler and read by CrashIntegration.
// Described in docs/intermediate-dump-format.md. Every number here is part of the on-disk
// format: values are never renumbered or reused; new ones are only ever appended.
#ifndef SEAM_DUMP_FORMAT_H
#define SEAM_DUMP_FORMAT_H

#include <stdint.h>

/// File header: 8 magic bytes then a little-endian uint32 format version.
#define SEAM_DUMP_MAGIC "SEAMDMP1"
#define SEAM_DUMP_MAGIC_SIZE 8
#define SEAM_DUMP_VERSION 1u
#define SEAM_DUMP_HEADER_SIZE 12

/// Command tags (one byte each). All integers in the stream are little-endian.
typedef enum seam_dump_command {
    /// [tag][key:u16] — opens a map, closed by SEAM_DUMP_END_MAP.
    SEAM_DUMP_START_MAP = 1,
    SEAM_DUMP_END_MAP = 2,
    /// [tag][key:u16] — opens an array whose elements are maps (their key is 0).
    SEAM_DUMP_START_ARRAY = 3,
    SEAM_DUMP_END_ARRAY = 4,
    /// [tag][key:u16][length:u32][length bytes] — a leaf value.
    SEAM_DUMP_PROPERTY = 5,
    /// [tag] — the handler finished; without it the dump is incomplete.
    SEAM_DUMP_END_DOCUMENT = 6,
} seam_dump_command;

/// Property and container keys. Integer properties are stored as 8-byte little-endian
/// unsigned values, strings as raw bytes without a terminator.
typedef enum seam_dump_key {
    SEAM_DK_NONE = 0,

    // Root map: capture facts (integers unless noted).
    SEAM_DK_PID = 1,
    SEAM_DK_CRASH_TIME_SEC = 2,             // CLOCK_REALTIME at handler entry
    SEAM_DK_CRASH_TIME_NSEC = 3,
    SEAM_DK_HANDLER_ENTRY_MONO_NS = 4,      // CLOCK_MONOTONIC at handler entry
    SEAM_DK_HANDLER_EXIT_MONO_NS = 5,       // CLOCK_MONOTONIC just before END_DOCUMENT
    SEAM_DK_INSTALL_TIME_SEC = 6,           // CLOCK_REALTIME at install
    SEAM_DK_NESTED_SIGNAL = 7,              // a second signal hit the handler's thread
    SEAM_DK_FATAL_ERROR_MESSAGE = 8,        // string: the Swift runtime's fatal-error message
    SEAM_DK_TERMINATE_CALLED = 9,           // 1: std::terminate ran (with or without an exception)

    // SIGNAL map.
    SEAM_DK_SIGNAL = 10,
    SEAM_DK_SIGNAL_NUMBER = 11,
    SEAM_DK_SIGNAL_CODE = 12,               // si_code, stored as int32 sign-extended to 64 bits
    SEAM_DK_SIGNAL_ADDRESS = 13,            // si_addr
    SEAM_DK_SIGNAL_SENDER_PID = 14,         // si_pid when si_code <= 0 (sent by a process)

    // EXCEPTION map (uncaught C++ exception seen by the terminate monitor).
    SEAM_DK_EXCEPTION = 20,
    SEAM_DK_EXCEPTION_TYPE = 21,            // mangled type name (string)
    SEAM_DK_EXCEPTION_WHAT = 22,            // what() when it derives from std::exception

    // CRASHED_THREAD map.
    SEAM_DK_CRASHED_THREAD = 30,
    SEAM_DK_THREAD_ID = 31,
    SEAM_DK_THREAD_NAME = 32,               // string
    SEAM_DK_REGISTERS = 33,                 // array of REGISTER maps
    SEAM_DK_REGISTER_NAME = 34,             // string
    SEAM_DK_REGISTER_VALUE = 35,
    SEAM_DK_ARCHITECTURE = 36,              // string: "x86_64", "aarch64"
    SEAM_DK_FRAMES = 37,                    // array of FRAME maps, innermost first
    SEAM_DK_FRAME_ADDRESS = 38,
    SEAM_DK_FRAME_TRUST = 39,               // seam_dump_frame_trust

    // THREADS array of maps (THREAD_ID, THREAD_NAME, THREAD_CRASHED).
    SEAM_DK_THREADS = 40,
    SEAM_DK_THREAD_CRASHED = 41,            // 1 for the thread that took the signal
    // Per thread (THREADS elements), laid out for a minidump writer: REGISTERS (33) and
    // ARCHITECTURE (36) as for the crashed thread, plus the following.
    SEAM_DK_STACK_START = 42,               // address of the first byte of STACK_BYTES
    SEAM_DK_STACK_BYTES = 43,               // raw stack memory from the stack pointer upward
    SEAM_DK_CONTEXT_STATUS = 44,            // seam_dump_context_status
    SEAM_DK_FP_REGISTERS = 45,              // raw floating-point state (x86_64: FXSAVE layout)
    SEAM_DK_MEMORY = 46,                    // array of further memory regions (maps)
    SEAM_DK_MEMORY_START = 47,              // MEMORY element: address of the first byte
    SEAM_DK_MEMORY_BYTES = 48,              // MEMORY element: raw bytes
    SEAM_DK_STACK_END = 49,                 // end (highest address + 1) of the thread's stack mapping

    // MODULES array of maps.
    SEAM_DK_MODULES = 50,
    SEAM_DK_MODULE_PATH = 51,               // string; "" never written (main exe resolved)
    SEAM_DK_MODULE_BIAS = 52,               // load bias: runtime address - ELF vaddr
    SEAM_DK_MODULE_BUILD_ID = 53,           // raw bytes of NT_GNU_BUILD_ID (may be absent)
    SEAM_DK_MODULE_START = 54,              // lowest PT_LOAD runtime address
    SEAM_DK_MODULE_END = 55,                // end of highest PT_LOAD
    SEAM_DK_MODULE_SOURCE = 56,             // seam_dump_module_source

    // Key/value sections: arrays of maps (ENTRY_KEY, ENTRY_VALUE), strings.
    SEAM_DK_SYSTEM_INFO = 60,
    SEAM_DK_ANNOTATIONS = 61,
    SEAM_DK_ENTRY_KEY = 62,
    SEAM_DK_ENTRY_VALUE = 63,

    // PROCESS map.
    SEAM_DK_PROCESS = 70,
    SEAM_DK_PROCESS_EXECUTABLE = 71,        // string, /proc/self/exe at install
    SEAM_DK_PROCESS_PARENT_PID = 72,

    // CRASHED_THREAD: the outermost frames of a stack too deep for FRAMES (innermost first),
    // and how many frames the frame-pointer chain had in all.
    SEAM_DK_OUTER_FRAMES = 80,              // array of FRAME maps, like FRAMES
    SEAM_DK_FRAME_COUNT = 81,               // integer
    SEAM_DK_ASYNC_FRAMES = 82,              // array of FRAME maps: Swift async callers (resume functions)
} seam_dump_key;

/// Whether a THREADS element carries the thread's own registers (SEAM_DK_CONTEXT_STATUS).
typedef enum seam_dump_context_status {
    SEAM_CONTEXT_CAPTURED = 1,              // the thread recorded its context on request
    SEAM_CONTEXT_CRASHED = 2,               // the crashing thread: context from the signal
    SEAM_CONTEXT_NO_ANSWER = 3,             // did not answer before the deadline
    SEAM_CONTEXT_NOT_ASKED = 4,             // more threads than slots, or signalling failed
    SEAM_CONTEXT_SIGNAL_BLOCKED = 5,        // the thread blocks the request signal and SIGPROF
} seam_dump_context_status;

/// How a frame's address was found (SEAM_DK_FRAME_TRUST).
typedef enum seam_dump_frame_trust {
    SEAM_FRAME_TRUST_CONTEXT = 1,           // program counter from the signal context
    SEAM_FRAME_TRUST_FRAME_POINTER = 2,     // return address from the frame-pointer chain
    SEAM_FRAME_TRUST_SCAN = 3,              // stack word that follows a call instruction
    SEAM_FRAME_TRUST_LINK_REGISTER = 4,     // aarch64 link register
    SEAM_FRAME_TRUST_CFI = 5,               // unwound at processing time with the module's CFI
    SEAM_FRAME_TRUST_ASYNC = 6,             // resume function of a Swift async caller (async context chain)
} seam_dump_frame_trust;

/// Where a module record came from (SEAM_DK_MODULE_SOURCE).
typedef enum seam_dump_module_source {
    SEAM_MODULE_SOURCE_INSTALL = 1,         // dl_iterate_phdr at install / refresh
    SEAM_MODULE_SOURCE_LINK_MAP = 2,        // loaded later, read from r_debug at crash time
} seam_dump_module_source;

#endif
