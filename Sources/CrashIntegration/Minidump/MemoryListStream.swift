/// MINIDUMP_MEMORY_LIST: the thread stacks (already written by the thread list) and any further
/// memory blocks, so a reader can unwind and inspect them.
enum MemoryListStream {
    static func write(
        _ input: MinidumpInput, into buffer: inout MinidumpBuffer,
        state: MinidumpState
    ) -> MinidumpBuffer.Location {
        var ranges = state.stacks
        for block in input.memory where !block.bytes.isEmpty {
            ranges.append((block.start, buffer.blob(block.bytes)))
        }
        let start = buffer.beginRecords()
        buffer.u32(UInt32(ranges.count))
        for range in ranges {
            buffer.u64(range.start)
            buffer.location(range.location)
        }
        return buffer.end(from: start)
    }
}
