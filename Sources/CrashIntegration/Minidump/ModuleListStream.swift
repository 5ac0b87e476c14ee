/// MINIDUMP_MODULE_LIST: each loaded ELF object with its path and a CodeView record carrying its
/// GNU build ID (Breakpad's "BpEL" record), which symbol servers and debuggers match files by.
enum ModuleListStream {
    static func write(_ modules: [MinidumpInput.Module], into buffer: inout MinidumpBuffer) -> MinidumpBuffer.Location {
        var records: [(module: MinidumpInput.Module, name: UInt32, codeView: MinidumpBuffer.Location)] = []
        for module in modules {
            let name = buffer.string(module.path)
            var codeView = MinidumpBuffer.Location.empty
            if let buildID = module.buildID, !buildID.isEmpty {
                var record = MinidumpBuffer()
                record.u32(MinidumpFormat.codeViewELF)
                record.raw(buildID)
                codeView = buffer.blob(record.bytes)
            }
            records.append((module, name, codeView))
        }
        let start = buffer.beginRecords()
        buffer.u32(UInt32(records.count))
        for record in records {
            buffer.u64(record.module.base)
            buffer.u32(UInt32(truncatingIfNeeded: min(record.module.size, UInt64(UInt32.max))))
            buffer.u32(0) // checksum
            buffer.u32(0) // time stamp
            buffer.u32(record.name)
            buffer.u32(MinidumpFormat.fixedFileInfoSignature) // VS_FIXEDFILEINFO, otherwise empty
            buffer.u32(0x0001_0000) // its structure version
            buffer.zeros(11 * 4)
            buffer.location(record.codeView)
            buffer.location(.empty) // misc record
            buffer.u64(0)
            buffer.u64(0)
        }
        return buffer.end(from: start)
    }
}
