// Async-signal-safe writer for the intermediate dump: a static buffer flushed with write().
#ifndef SEAM_DUMP_WRITER_H
#define SEAM_DUMP_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define SEAM_WRITER_BUFFER_SIZE 8192
#define SEAM_WRITER_MAX_DEPTH 16

typedef struct seam_dump_writer {
    int fd;
    int failed;                       // a write() failed; later output is dropped
    size_t used;
    uint64_t written;                 // bytes handed to write() so far
    int depth;                        // open containers
    uint8_t open_kind[SEAM_WRITER_MAX_DEPTH];
    uint8_t buffer[SEAM_WRITER_BUFFER_SIZE];
} seam_dump_writer;

/// Starts a document on fd: writes the magic and version.
void seam_writer_begin(seam_dump_writer *w, int fd);
/// Continues a document whose header (and prelude) fd already holds, at fd's offset.
void seam_writer_resume(seam_dump_writer *w, int fd, uint64_t already_written);
void seam_writer_start_map(seam_dump_writer *w, uint16_t key);
void seam_writer_start_array(seam_dump_writer *w, uint16_t key);
/// Closes the innermost open map or array.
void seam_writer_end(seam_dump_writer *w);
/// Closes every open container (used after recovering from a nested crash).
void seam_writer_end_all(seam_dump_writer *w);
void seam_writer_bytes(seam_dump_writer *w, uint16_t key, const void *data, size_t length);
void seam_writer_u64(seam_dump_writer *w, uint16_t key, uint64_t value);
/// Writes a NUL-terminated string (at most max_length bytes of it).
void seam_writer_string(seam_dump_writer *w, uint16_t key, const char *text, size_t max_length);
/// Appends raw bytes to the stream (a property written in pieces, header first).
void seam_writer_raw(seam_dump_writer *w, const void *data, size_t length);
/// Writes END_DOCUMENT and flushes.
void seam_writer_finish(seam_dump_writer *w);
void seam_writer_flush(seam_dump_writer *w);

#endif
