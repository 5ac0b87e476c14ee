// Intermediate dump writer: byte copies into a static buffer and write(2), nothing else,
// so it is safe in a signal handler.
#include "dump_writer.h"
#include "seam_dump_format.h"

#include <errno.h>
#include <unistd.h>

static void raw_write(seam_dump_writer *w, const uint8_t *data, size_t length) {
    while (length > 0 && !w->failed) {
        ssize_t n = write(w->fd, data, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            w->failed = 1;
            return;
        }
        if (n == 0) { w->failed = 1; return; }
        data += n;
        length -= (size_t)n;
        w->written += (uint64_t)n;
    }
}

void seam_writer_flush(seam_dump_writer *w) {
    raw_write(w, w->buffer, w->used);
    w->used = 0;
}

static void put(seam_dump_writer *w, const void *data, size_t length) {
    const uint8_t *bytes = (const uint8_t *)data;
    if (length > SEAM_WRITER_BUFFER_SIZE - w->used) {
        seam_writer_flush(w);
        if (length > SEAM_WRITER_BUFFER_SIZE) { raw_write(w, bytes, length); return; }
    }
    for (size_t i = 0; i < length; i++) w->buffer[w->used + i] = bytes[i];
    w->used += length;
}

void seam_writer_raw(seam_dump_writer *w, const void *data, size_t length) { put(w, data, length); }

static void put_le(seam_dump_writer *w, uint64_t value, int size) {
    uint8_t bytes[8];
    for (int i = 0; i < size; i++) bytes[i] = (uint8_t)(value >> (8 * i));
    put(w, bytes, (size_t)size);
}

void seam_writer_begin(seam_dump_writer *w, int fd) {
    w->fd = fd;
    w->failed = 0;
    w->used = 0;
    w->written = 0;
    w->depth = 0;
    put(w, SEAM_DUMP_MAGIC, SEAM_DUMP_MAGIC_SIZE);
    put_le(w, SEAM_DUMP_VERSION, 4);
}

void seam_writer_resume(seam_dump_writer *w, int fd, uint64_t already_written) {
    w->fd = fd;
    w->failed = 0;
    w->used = 0;
    w->written = already_written;
    w->depth = 0;
}

static void start(seam_dump_writer *w, uint8_t tag, uint16_t key) {
    put(w, &tag, 1);
    put_le(w, key, 2);
    if (w->depth < SEAM_WRITER_MAX_DEPTH) w->open_kind[w->depth] = tag;
    w->depth++;
}

void seam_writer_start_map(seam_dump_writer *w, uint16_t key) { start(w, SEAM_DUMP_START_MAP, key); }
void seam_writer_start_array(seam_dump_writer *w, uint16_t key) { start(w, SEAM_DUMP_START_ARRAY, key); }

void seam_writer_end(seam_dump_writer *w) {
    if (w->depth == 0) return;
    w->depth--;
    uint8_t kind = w->depth < SEAM_WRITER_MAX_DEPTH ? w->open_kind[w->depth] : SEAM_DUMP_START_MAP;
    uint8_t tag = kind == SEAM_DUMP_START_ARRAY ? SEAM_DUMP_END_ARRAY : SEAM_DUMP_END_MAP;
    put(w, &tag, 1);
}

void seam_writer_end_all(seam_dump_writer *w) {
    while (w->depth > 0) seam_writer_end(w);
}

void seam_writer_bytes(seam_dump_writer *w, uint16_t key, const void *data, size_t length) {
    uint8_t tag = SEAM_DUMP_PROPERTY;
    if (length > UINT32_MAX) length = UINT32_MAX;
    put(w, &tag, 1);
    put_le(w, key, 2);
    put_le(w, length, 4);
    put(w, data, length);
}

void seam_writer_u64(seam_dump_writer *w, uint16_t key, uint64_t value) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) bytes[i] = (uint8_t)(value >> (8 * i));
    seam_writer_bytes(w, key, bytes, 8);
}

void seam_writer_string(seam_dump_writer *w, uint16_t key, const char *text, size_t max_length) {
    size_t length = 0;
    if (text) while (length < max_length && text[length] != '\0') length++;
    seam_writer_bytes(w, key, text ? text : "", length);
}

void seam_writer_finish(seam_dump_writer *w) {
    uint8_t tag = SEAM_DUMP_END_DOCUMENT;
    put(w, &tag, 1);
    seam_writer_flush(w);
}
