/// Writes a minidump (the Breakpad/Crashpad flavour of Microsoft's format, which Sentry,
/// Socorro, Backtrace, Crashpad servers, LLDB and Breakpad's tools read) from a `MinidumpInput`.
///
/// Layout: header, stream directory, then each stream's referenced data (contexts, stacks,
/// strings, CodeView records) followed by the stream's fixed records.
public enum MinidumpWriter {
    /// Writes one stream's data and records, returning where its records are.
    typealias StreamWriter = (inout MinidumpBuffer, inout MinidumpState) -> MinidumpBuffer.Location

    /// The minidump's bytes.
    public static func bytes(for input: MinidumpInput) -> [UInt8] {
        var streams: [(MinidumpFormat.Stream, StreamWriter)] = [
            (.systemInfo, { buffer, _ in SystemInfoStream.write(input.system, into: &buffer) }),
            (.threadList, { buffer, state in ThreadListStream.write(input, into: &buffer, state: &state) }),
            (.memoryList, { buffer, state in MemoryListStream.write(input, into: &buffer, state: state) }),
            (.moduleList, { buffer, _ in ModuleListStream.write(input.modules, into: &buffer) }),
        ]
        if let exception = input.exception {
            streams.append((.exception, { buffer, _ in ExceptionStream.write(exception, input: input, into: &buffer) }))
        }
        if let pid = input.processID {
            streams.append((.miscInfo, { buffer, _ in MiscInfoStream.write(processID: pid, into: &buffer) }))
        }
        let texts: [(MinidumpFormat.Stream, String?)] = [
            (.linuxMaps, input.procMaps), (.linuxCPUInfo, input.cpuInfo),
            (.linuxLSBRelease, input.osRelease),
        ]
        for (kind, text) in texts {
            guard let text else { continue }
            streams.append((kind, { buffer, _ in buffer.blob(Array(text.utf8)) }))
        }

        var buffer = MinidumpBuffer()
        buffer.u32(MinidumpFormat.signature)
        buffer.u32(MinidumpFormat.version)
        buffer.u32(UInt32(streams.count))
        buffer.u32(UInt32(MinidumpFormat.headerSize)) // the directory follows the header
        buffer.u32(0) // checksum: unused
        buffer.u32(input.crashTime)
        buffer.u64(0) // flags: MiniDumpNormal
        let directory = buffer.bytes.count
        buffer.zeros(streams.count * MinidumpFormat.directoryEntrySize)
        var state = MinidumpState()
        for (index, (kind, write)) in streams.enumerated() {
            let location = write(&buffer, &state)
            let entry = directory + index * MinidumpFormat.directoryEntrySize
            buffer.patch(kind.rawValue, at: entry)
            buffer.patch(location.size, at: entry + 4)
            buffer.patch(location.rva, at: entry + 8)
        }
        return buffer.bytes
    }
}

/// What one stream leaves for a later one: the thread stacks, which the memory list names too.
struct MinidumpState {
    var stacks: [(start: UInt64, location: MinidumpBuffer.Location)] = []
}

extension MinidumpBuffer {
    /// Marks the start of a stream's fixed records; `end(from:)` turns it into the stream's location.
    mutating func beginRecords() -> UInt32 {
        align(8)
        return offset
    }

    func end(from start: UInt32) -> Location {
        Location(size: offset - start, rva: start)
    }
}
