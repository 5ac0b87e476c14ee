/// MINIDUMP_THREAD_LIST: each thread's id, stack memory and context.
enum ThreadListStream {
    static func write(
        _ input: MinidumpInput, into buffer: inout MinidumpBuffer,
        state: inout MinidumpState
    ) -> MinidumpBuffer.Location {
        var records:
            [(id: UInt32, stackStart: UInt64, stack: MinidumpBuffer.Location, context: MinidumpBuffer.Location)] = []
        for thread in input.threads {
            var stack = MinidumpBuffer.Location.empty
            if let start = thread.stackStart, !thread.stackBytes.isEmpty {
                stack = buffer.blob(thread.stackBytes)
                state.stacks.append((start, stack))
            }
            let context = buffer.blob(ThreadContext.bytes(for: thread, architecture: input.system.architecture))
            records.append((thread.id, thread.stackStart ?? 0, stack, context))
        }
        let start = buffer.beginRecords()
        buffer.u32(UInt32(records.count))
        for record in records {
            buffer.u32(record.id)
            buffer.u32(0) // suspend count
            buffer.u32(0) // priority class
            buffer.u32(0) // priority
            buffer.u64(0) // TEB
            buffer.u64(record.stackStart)
            buffer.location(record.stack)
            buffer.location(record.context)
        }
        return buffer.end(from: start)
    }
}
