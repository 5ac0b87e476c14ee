// Module list. Both install-time and crash-time records are parsed with the same
// fault-free reader, so a half-unmapped library at crash time cannot fault the handler.
#define _GNU_SOURCE
#include "module_list.h"
#include "safe_memory.h"
#include "seam_dump_format.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static seam_module_set g_sets[2];
static _Atomic int g_active_set = -1;
static pthread_mutex_t g_refresh_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_executable_path[4096];

static size_t bounded_length(const char *text, size_t max) {
    size_t n = 0;
    while (n < max && text[n] != '\0') n++;
    return n;
}

/// Copies a string that is readable in-process (the caller checked it) into the pool.
static const char *pool_add(seam_module_set *set, const char *text, size_t length) {
    if (length + 1 > SEAM_MODULE_PATH_POOL - set->paths_used) return "";
    char *slot = set->paths + set->paths_used;
    for (size_t i = 0; i < length; i++) slot[i] = text[i];
    slot[length] = '\0';
    set->paths_used += length + 1;
    return slot;
}

/// Copies a string from memory that may be unmapped. Reads stop at page boundaries, so a
/// string ending just before an unmapped page is still read whole.
static const char *pool_add_foreign(seam_module_set *set, const char *text) {
    size_t room = SEAM_MODULE_PATH_POOL - set->paths_used;
    if (text == NULL || room < 2) return "";
    char *slot = set->paths + set->paths_used;
    size_t length = 0, limit = room - 1 < 4095 ? room - 1 : 4095;
    int terminated = 0;
    while (length < limit && !terminated) {
        uintptr_t at = (uintptr_t)text + length;
        size_t chunk = 4096 - (at & 4095);
        if (chunk > 256) chunk = 256;
        if (chunk > limit - length) chunk = limit - length;
        if (seam_safe_read((const void *)at, slot + length, chunk) != 0) break;
        for (size_t i = 0; i < chunk; i++) {
            if (slot[length] == '\0') { terminated = 1; break; }
            length++;
        }
    }
    slot[length] = '\0';
    set->paths_used += length + 1;
    return slot;
}

static void read_build_id(seam_module *m, uintptr_t notes, uintptr_t size) {
    uintptr_t offset = 0;
    while (offset + sizeof(ElfW(Nhdr)) <= size) {
        ElfW(Nhdr) note;
        if (seam_safe_read((const void *)(notes + offset), &note, sizeof note) != 0) return;
        uintptr_t name_at = offset + sizeof note;
        uintptr_t desc_at = name_at + ((note.n_namesz + 3u) & ~3u);
        uintptr_t next = desc_at + ((note.n_descsz + 3u) & ~3u);
        if (next > size || next <= offset) return;
        char name[4];
        if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
            seam_safe_read((const void *)(notes + name_at), name, 4) == 0 &&
            name[0] == 'G' && name[1] == 'N' && name[2] == 'U' && name[3] == '\0') {
            size_t length = note.n_descsz > SEAM_MAX_BUILD_ID ? SEAM_MAX_BUILD_ID : note.n_descsz;
            if (seam_safe_read((const void *)(notes + desc_at), m->build_id, length) == 0) {
                m->build_id_length = (uint8_t)length;
            }
            return;
        }
        offset = next;
    }
}

/// Fills the address spans and build ID of m from its program headers.
static void describe_segments(seam_module *m, const ElfW(Phdr) *phdrs, size_t count) {
    m->start = m->exec_start = UINTPTR_MAX;
    m->end = m->exec_end = 0;
    for (size_t i = 0; i < count && i < 256; i++) {
        ElfW(Phdr) ph;
        if (seam_safe_read(&phdrs[i], &ph, sizeof ph) != 0) break;
        uintptr_t lo = m->bias + ph.p_vaddr, hi = lo + ph.p_memsz;
        if (ph.p_type == PT_LOAD) {
            if (lo < m->start) m->start = lo;
            if (hi > m->end) m->end = hi;
            if (ph.p_flags & PF_X) {
                if (lo < m->exec_start) m->exec_start = lo;
                if (hi > m->exec_end) m->exec_end = hi;
            }
        } else if (ph.p_type == PT_NOTE && m->build_id_length == 0) {
            read_build_id(m, lo, ph.p_memsz);
        }
    }
    if (m->start == UINTPTR_MAX) m->start = 0;
    if (m->exec_start == UINTPTR_MAX) m->exec_start = 0;
}

static int record_loaded(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    seam_module_set *set = context;
    if (set->count >= SEAM_MAX_MODULES) return 1;
    seam_module *m = &set->modules[set->count];
    memset(m, 0, sizeof *m);
    m->bias = info->dlpi_addr;
    m->source = SEAM_MODULE_SOURCE_INSTALL;
    const char *name = info->dlpi_name;
    if (name == NULL || name[0] == '\0') name = set->count == 0 ? g_executable_path : "";
    m->path = pool_add(set, name, bounded_length(name, 4095));
    describe_segments(m, info->dlpi_phdr, info->dlpi_phnum);
    set->count++;
    return 0;
}

size_t seam_modules_refresh(const char *executable_path) {
    pthread_mutex_lock(&g_refresh_lock);
    if (executable_path != NULL) {
        size_t n = bounded_length(executable_path, sizeof g_executable_path - 1);
        memcpy(g_executable_path, executable_path, n);
        g_executable_path[n] = '\0';
    }
    int active = atomic_load(&g_active_set);
    seam_module_set *next = &g_sets[active == 0 ? 1 : 0];
    next->count = 0;
    next->paths_used = 0;
    dl_iterate_phdr(record_loaded, next);
    atomic_store(&g_active_set, active == 0 ? 1 : 0);
    size_t count = next->count;
    pthread_mutex_unlock(&g_refresh_lock);
    return count;
}

static const seam_module *find_recorded(const seam_module_set *set, uintptr_t bias, const char *name) {
    if (set == NULL) return NULL;
    for (size_t i = 0; i < set->count; i++) {
        const seam_module *m = &set->modules[i];
        if (m->bias != bias) continue;
        // The main executable has an empty link_map name; its record holds the real path.
        if (name[0] == '\0' ? i == 0 : strcmp(m->path, name) == 0) return m;
    }
    return NULL;
}

static void copy_module(seam_module_set *out, const seam_module *from) {
    seam_module *m = &out->modules[out->count++];
    *m = *from;
    m->path = pool_add(out, from->path, bounded_length(from->path, 4095));
}

/// A module that appeared after the last refresh: its ELF header sits at its bias.
static void parse_new_module(seam_module_set *out, uintptr_t bias, const char *name_copy) {
    seam_module *m = &out->modules[out->count++];
    for (size_t i = 0; i < sizeof *m; i++) ((char *)m)[i] = 0;
    m->bias = bias;
    m->path = name_copy;
    m->source = SEAM_MODULE_SOURCE_LINK_MAP;
    ElfW(Ehdr) header;
    if (seam_safe_read((const void *)bias, &header, sizeof header) == 0 &&
        header.e_ident[EI_MAG0] == ELFMAG0 && header.e_ident[EI_MAG1] == ELFMAG1 &&
        header.e_ident[EI_MAG2] == ELFMAG2 && header.e_ident[EI_MAG3] == ELFMAG3) {
        describe_segments(m, (const ElfW(Phdr) *)(bias + header.e_phoff), header.e_phnum);
    }
}

void seam_modules_collect(seam_module_set *out) {
    out->count = 0;
    out->paths_used = 0;
    int active = atomic_load(&g_active_set);
    const seam_module_set *recorded = active < 0 ? NULL : &g_sets[active];

    struct r_debug debug;
    struct link_map node;
    const struct link_map *at = NULL;
    if (seam_safe_read(&_r_debug, &debug, sizeof debug) == 0) at = debug.r_map;
    for (int steps = 0; at != NULL && steps < 4 * SEAM_MAX_MODULES; steps++) {
        if (out->count >= SEAM_MAX_MODULES || seam_safe_read(at, &node, sizeof node) != 0) break;
        size_t pool_mark = out->paths_used;
        const char *name = pool_add_foreign(out, node.l_name);
        const seam_module *known = find_recorded(recorded, node.l_addr, name);
        if (known != NULL) {
            out->paths_used = pool_mark;   // the record carries its own copy of the path
            copy_module(out, known);
        } else {
            parse_new_module(out, node.l_addr, name);
        }
        at = node.l_next;
    }
    if (out->count == 0 && recorded != NULL) {
        // No r_debug (static binary, or a corrupted list): fall back to the install records.
        for (size_t i = 0; i < recorded->count && i < SEAM_MAX_MODULES; i++) copy_module(out, &recorded->modules[i]);
    }
}

const seam_module *seam_modules_find_exec(const seam_module_set *set, uintptr_t address) {
    for (size_t i = 0; i < set->count; i++) {
        const seam_module *m = &set->modules[i];
        if (address >= m->exec_start && address < m->exec_end) return m;
    }
    return NULL;
}
