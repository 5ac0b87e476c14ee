// Register dump and stack walk for x86_64 and aarch64 Linux.
#define _GNU_SOURCE
#include "cpu_context.h"
#include "safe_memory.h"
#include "seam_dump_format.h"

#include <signal.h>
#include <ucontext.h>

#define SEAM_MAX_FRAME_STEP (16u * 1024 * 1024)
#define SEAM_MAX_SCAN_WORDS 8192
#define SEAM_MAX_CHAIN 1000000

typedef struct { uintptr_t pc, sp, fp, lr; } seam_pointers;

#if defined(__x86_64__)
static const char *const k_arch = "x86_64";
static const char *const k_sp_name = "rsp", *const k_pc_name = "rip";
static const struct { const char *name; int index; } k_registers[] = {
    {"rax", REG_RAX}, {"rbx", REG_RBX}, {"rcx", REG_RCX}, {"rdx", REG_RDX},
    {"rsi", REG_RSI}, {"rdi", REG_RDI}, {"rbp", REG_RBP}, {"rsp", REG_RSP},
    {"r8", REG_R8},   {"r9", REG_R9},   {"r10", REG_R10}, {"r11", REG_R11},
    {"r12", REG_R12}, {"r13", REG_R13}, {"r14", REG_R14}, {"r15", REG_R15},
    {"rip", REG_RIP}, {"eflags", REG_EFL}, {"csgsfs", REG_CSGSFS}, {"err", REG_ERR},
    {"trapno", REG_TRAPNO}, {"cr2", REG_CR2},
};
#define REGISTER_COUNT (sizeof k_registers / sizeof k_registers[0])
static uint64_t register_value(const ucontext_t *uc, size_t i) {
    return (uint64_t)uc->uc_mcontext.gregs[k_registers[i].index];
}
static const char *register_name(size_t i) { return k_registers[i].name; }
static seam_pointers pointers(const ucontext_t *uc) {
    const greg_t *g = uc->uc_mcontext.gregs;
    seam_pointers p = {(uintptr_t)g[REG_RIP], (uintptr_t)g[REG_RSP], (uintptr_t)g[REG_RBP], 0};
    return p;
}
#elif defined(__aarch64__)
static const char *const k_arch = "aarch64";
static const char *const k_sp_name = "sp", *const k_pc_name = "pc";
static const char *const k_names[] = {
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
    "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
    "x28", "fp", "lr", "sp", "pc", "pstate",
};
#define REGISTER_COUNT 34
static uint64_t register_value(const ucontext_t *uc, size_t i) {
    const mcontext_t *m = &uc->uc_mcontext;
    if (i < 31) return m->regs[i];
    return i == 31 ? m->sp : i == 32 ? m->pc : m->pstate;
}
static const char *register_name(size_t i) { return k_names[i]; }
static seam_pointers pointers(const ucontext_t *uc) {
    const mcontext_t *m = &uc->uc_mcontext;
    seam_pointers p = {m->pc, m->sp, m->regs[29], m->regs[30]};
    return p;
}
#else
#error "seam capture supports x86_64 and aarch64 Linux"
#endif

uintptr_t seam_context_sp(const void *ucontext) { return pointers(ucontext).sp; }

uintptr_t seam_context_fp(const void *ucontext) { return pointers(ucontext).fp; }

static void write_register(seam_dump_writer *w, const char *name, uint64_t value) {
    seam_writer_start_map(w, SEAM_DK_NONE);
    seam_writer_string(w, SEAM_DK_REGISTER_NAME, name, 16);
    seam_writer_u64(w, SEAM_DK_REGISTER_VALUE, value);
    seam_writer_end(w);
}

void seam_write_stack_registers(seam_dump_writer *w, uintptr_t sp, uintptr_t pc) {
    seam_writer_string(w, SEAM_DK_ARCHITECTURE, k_arch, 16);
    seam_writer_start_array(w, SEAM_DK_REGISTERS);
    write_register(w, k_sp_name, sp);
    write_register(w, k_pc_name, pc);
    seam_writer_end(w);
}

const void *seam_context_fp_state(const void *ucontext) {
#if defined(__x86_64__)
    return ((const ucontext_t *)ucontext)->uc_mcontext.fpregs;
#else
    (void)ucontext;
    return NULL;
#endif
}

void seam_write_fp_registers(seam_dump_writer *w, const void *fp_state) {
    static uint8_t copy[SEAM_FP_STATE_SIZE];
    if (fp_state != NULL && seam_safe_read(fp_state, copy, sizeof copy) == 0) {
        seam_writer_bytes(w, SEAM_DK_FP_REGISTERS, copy, sizeof copy);
    }
}

void seam_write_registers(seam_dump_writer *w, const void *ucontext) {
    const ucontext_t *uc = ucontext;
    seam_writer_string(w, SEAM_DK_ARCHITECTURE, k_arch, 16);
    seam_writer_start_array(w, SEAM_DK_REGISTERS);
    for (size_t i = 0; i < REGISTER_COUNT; i++) {
        seam_writer_start_map(w, SEAM_DK_NONE);
        seam_writer_string(w, SEAM_DK_REGISTER_NAME, register_name(i), 16);
        seam_writer_u64(w, SEAM_DK_REGISTER_VALUE, register_value(uc, i));
        seam_writer_end(w);
    }
    seam_writer_end(w);
}

static void push(seam_stack_trace *out, uintptr_t address, uint8_t trust) {
    if (out->count < SEAM_MAX_FRAMES) {
        out->address[out->count] = address;
        out->trust[out->count] = trust;
        out->count++;
    }
}

/// True when the bytes before address end with a call instruction.
static int follows_call(uintptr_t address) {
#if defined(__x86_64__)
    uint8_t code[7];
    if (address < 7 || seam_safe_read((const void *)(address - 7), code, sizeof code) != 0) return 0;
    if (code[2] == 0xE8) return 1;                                   // call rel32
    // call r/m64 (FF /2) with 2..7 bytes of ModRM/SIB/displacement.
    for (int length = 2; length <= 7; length++) {
        int at = 7 - length;
        if (code[at] == 0xFF && ((code[at + 1] >> 3) & 7) == 2) return 1;
    }
    return 0;
#else
    uint32_t insn;
    if (address < 4 || seam_safe_read((const void *)(address - 4), &insn, 4) != 0) return 0;
    return (insn & 0xFC000000u) == 0x94000000u ||                    // bl
           (insn & 0xFFFFFC1Fu) == 0xD63F0000u;                      // blr
#endif
}

static int is_return_address(const seam_module_set *modules, uintptr_t word) {
    return seam_modules_find_exec(modules, word) != NULL && follows_call(word);
}

static int plausible_frame(uintptr_t fp, uintptr_t above) {
    return fp > above && fp - above < SEAM_MAX_FRAME_STEP && (fp & (sizeof(uintptr_t) - 1)) == 0;
}

/// A frame record in (record, caller) that also names `caller` as its caller frame, or 0.
/// Two records cannot both be the live callee of one frame; the one nearer the caller is
/// (the live callee's record sits right below its caller's frame, and what lies below it is the
/// callee's own area, where records of earlier calls linger). Returns the nearest such record.
static uintptr_t record_nearer_caller(const seam_module_set *modules, uintptr_t record, uintptr_t caller) {
    static uintptr_t window[512];
    uintptr_t first = record + 2 * sizeof(uintptr_t);
    if (caller <= first) return 0;
    uintptr_t words = (caller - first) / sizeof(uintptr_t);
    if (words > sizeof window / sizeof window[0]) words = sizeof window / sizeof window[0];
    if (words < 2 || seam_safe_read((const void *)first, window, words * sizeof(uintptr_t)) != 0) return 0;
    for (uintptr_t i = words - 1; i-- > 0;) {
        if (window[i] == caller && is_return_address(modules, window[i + 1])) return first + i * sizeof(uintptr_t);
    }
    return 0;
}

/// Scans the stack words in [sp, limit) for return addresses: frames of functions that keep
/// no frame pointer (libc's raise and abort, leaf code) live there. When find_chain is set, stops
/// at the first return address stored just above a saved frame pointer and returns that frame
/// record's address so the frame-pointer walk can take over; otherwise returns 0.
static uintptr_t scan_stack(const seam_module_set *modules, uintptr_t sp, uintptr_t limit, int find_chain,
                            seam_stack_trace *out) {
    static uintptr_t page[4096 / sizeof(uintptr_t)];   // one page of stack per read
    uintptr_t page_start = 0, page_words = 0;
    uintptr_t chain_at = 0;   // a better frame record found ahead; candidates below it are stale
    for (uintptr_t at = sp; at < limit && out->count < SEAM_MAX_FRAMES; at += sizeof(uintptr_t)) {
        if (at >= page_start + page_words * sizeof(uintptr_t)) {
            uintptr_t end = (at | 4095) + 1;
            if (end > limit) end = limit;
            page_start = at;
            page_words = (end - at) / sizeof(uintptr_t);
            if (page_words == 0 || seam_safe_read((const void *)at, page, page_words * sizeof(uintptr_t)) != 0) return 0;
        }
        uintptr_t word = page[(at - page_start) / sizeof(uintptr_t)];
        if (!is_return_address(modules, word)) continue;
        push(out, word, SEAM_FRAME_TRUST_SCAN);
        uintptr_t record[2];   // what a frame record at at-8 would hold: saved fp, return address
        if (find_chain && at >= sp + sizeof(uintptr_t) && at - sizeof(uintptr_t) >= chain_at &&
            seam_safe_read((const void *)(at - sizeof(uintptr_t)), record, sizeof record) == 0 &&
            plausible_frame(record[0], at)) {
            uintptr_t next[2];
            if (seam_safe_read((const void *)record[0], next, sizeof next) == 0 && is_return_address(modules, next[1])) {
                uintptr_t nearer = plausible_frame(next[0], record[0])
                    ? record_nearer_caller(modules, record[0], next[0]) : 0;
                if (nearer == 0) return at - sizeof(uintptr_t);
                chain_at = nearer;   // this record is stale: keep scanning up to the nearer one
            }
        }
    }
    return 0;
}

#define SEAM_ASYNC_FRAME_BIT ((uintptr_t)1 << 60)

/// True when path names the Swift concurrency runtime.
static int is_concurrency_runtime(const char *path) {
    static const char name[] = "libswift_Concurrency";
    for (const char *at = path; at != NULL && *at; at++) {
        size_t i = 0;
        while (name[i] && at[i] == name[i]) i++;
        if (name[i] == '\0') return 1;
    }
    return 0;
}

/// Follows the async context a frame keeps just below its frame record (Swift's extended async
/// frame: the context is stored at fp - 8; the caller passes that word). Each context starts with its parent context and the
/// parent's resume function. Darwin marks such frames (bit 60 of the saved frame pointer);
/// Linux does not, so a candidate is accepted only as a whole chain: every context readable,
/// every resume function in a loaded executable segment, ending in a context without a parent
/// whose resume function is in the concurrency runtime (the task's completion). Returns 1 when
/// it recorded one.
static int follow_async_contexts(uintptr_t context, const seam_module_set *modules, seam_stack_trace *out) {
    size_t count = 0;
    const seam_module *last = NULL;
    while (context != 0 && count < SEAM_MAX_ASYNC_FRAMES) {
        uintptr_t head[2];   // parent context, resume function of the parent
        if ((context & (sizeof(uintptr_t) - 1)) != 0 || seam_safe_read((const void *)context, head, sizeof head) != 0) return 0;
        last = seam_modules_find_exec(modules, head[1]);
        if (last == NULL) return 0;
        out->async[count++] = head[1];
        context = head[0];
    }
    if (context != 0 || count < 2 || !is_concurrency_runtime(last->path)) return 0;
    out->async_count = count - 1;   // the last is the runtime's task completion, not a caller
    return 1;
}

void seam_walk_stack(const void *ucontext, const seam_module_set *modules, seam_stack_trace *out) {
    seam_pointers p = pointers(ucontext);
    out->count = 0;
    out->async_count = 0;
    push(out, p.pc, SEAM_FRAME_TRUST_CONTEXT);
    uintptr_t fp = p.fp;
    int first_pushed = 0;   // the scan already pushed the return address of the first record
#if defined(__aarch64__)
    // Valid for a leaf function; in others it may repeat a frame, hence its own trust value.
    if (p.lr != 0 && seam_modules_find_exec(modules, p.lr) != NULL) push(out, p.lr, SEAM_FRAME_TRUST_LINK_REGISTER);
#endif
    uintptr_t lowest = p.sp;
    if (fp == p.sp || plausible_frame(fp, p.sp)) {
        scan_stack(modules, p.sp, fp, 0, out);
    } else {
        // The frame-pointer register holds something else (code built without frame
        // pointers): find the nearest real frame record by scanning.
        fp = scan_stack(modules, p.sp, p.sp + SEAM_MAX_SCAN_WORDS * sizeof(uintptr_t), 1, out);
        first_pushed = fp != 0;
        uintptr_t record[2];
        if (fp == 0 && (p.fp & (sizeof(uintptr_t) - 1)) == 0 &&
            seam_safe_read((const void *)p.fp, record, sizeof record) == 0 && is_return_address(modules, record[1])) {
            // Nothing found from the stack pointer (unreadable: a corrupt stack pointer), but the
            // frame-pointer register holds a frame record: follow the chain from there.
            fp = p.fp;
            lowest = p.fp;
        }
    }
    out->total = out->count;
    // 64 KiB of stack per read (one page where that fails, at the stack's end): a deep chain
    // then costs a system call per 64 KiB, not per frame.
    static uintptr_t cached[65536 / sizeof(uintptr_t)];
    uintptr_t cached_start = 0, cached_end = 0;
    // Past SEAM_MAX_FRAMES the chain is still followed (a stack overflow is tens of thousands
    // deep) and its outermost frames kept in a ring, so where the recursion began is not lost.
    while (out->total < SEAM_MAX_CHAIN) {
        uintptr_t record[2];   // saved frame pointer, return address
        if (fp < lowest || (fp & (sizeof(uintptr_t) - 1)) != 0) break;
        if (fp < cached_start || fp + sizeof record > cached_end) {
            uintptr_t page_start = fp & ~(uintptr_t)4095;
            size_t span = sizeof cached;
            if (seam_safe_read((const void *)page_start, cached, span) != 0) {
                span = 4096;
                if (seam_safe_read((const void *)page_start, cached, span) != 0) span = 0;
            }
            cached_start = span ? page_start : 0;
            cached_end = span ? page_start + span : 0;
        }
        if (fp >= cached_start && fp + sizeof record <= cached_end) {
            record[0] = cached[(fp - cached_start) / sizeof(uintptr_t)];
            record[1] = cached[(fp - cached_start) / sizeof(uintptr_t) + 1];
        } else if (seam_safe_read((const void *)fp, record, sizeof record) != 0) {
            break;
        }
        if (record[1] == 0) break;
        if (!first_pushed) {
            if (out->count < SEAM_MAX_FRAMES) push(out, record[1], SEAM_FRAME_TRUST_FRAME_POINTER);
            else out->outer[(out->total - SEAM_MAX_FRAMES) % SEAM_MAX_OUTER_FRAMES] = record[1];
            out->total++;
        }
        first_pushed = 0;
        // The callers an async function's task awaits are not on this stack but in its async
        // context's parent chain; Darwin also sets bit 60 of an async frame's saved frame pointer.
        if (out->async_count == 0 && out->total < SEAM_MAX_FRAMES && fp - sizeof(uintptr_t) >= cached_start &&
            fp < cached_end) {
            uintptr_t candidate = cached[(fp - sizeof(uintptr_t) - cached_start) / sizeof(uintptr_t)];
            if (candidate != 0 && (candidate & (sizeof(uintptr_t) - 1)) == 0) follow_async_contexts(candidate, modules, out);
        }
        uintptr_t next = record[0] & ~SEAM_ASYNC_FRAME_BIT;
        if (!plausible_frame(next, fp)) break;
        lowest = fp;
        fp = next;
    }
}
