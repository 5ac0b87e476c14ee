/// MINIDUMP_EXCEPTION_STREAM the Linux way (Breakpad, Crashpad): the signal number as the
/// exception code, si_code as the flags, si_addr as the address, and the crashing thread's context.
enum ExceptionStream {
    static func write(
        _ exception: MinidumpInput.Exception, input: MinidumpInput,
        into buffer: inout MinidumpBuffer
    ) -> MinidumpBuffer.Location {
        var context = MinidumpBuffer.Location.empty
        if let thread = input.threads.first(where: { $0.id == exception.threadID }) {
            context = buffer.blob(ThreadContext.bytes(for: thread, architecture: input.system.architecture))
        }
        let start = buffer.beginRecords()
        buffer.u32(exception.threadID)
        buffer.u32(0) // alignment
        buffer.u32(exception.signal) // ExceptionCode
        buffer.u32(UInt32(bitPattern: exception.code)) // ExceptionFlags
        buffer.u64(0) // ExceptionRecord (no chain)
        buffer.u64(exception.address) // ExceptionAddress
        buffer.u32(0) // NumberParameters
        buffer.u32(0) // alignment
        buffer.zeros(15 * 8) // ExceptionInformation
        buffer.location(context)
        return buffer.end(from: start)
    }
}
