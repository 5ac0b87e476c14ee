// libFuzzer entry point for the intermediate-dump reader, the typed snapshot, and the report
// builder and minidump writer that consume it (built by scripts/fuzz-dump-reader). Any crash,
// sanitizer report or broken invariant is a finding.
import CrashRuntime

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDumpReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let dump = IntermediateDump(bytes: bytes)
    if dump.isComplete != (dump.incompleteReason == nil) {
        fatalError("isComplete disagrees with incompleteReason")
    }
    if dump.isComplete && bytes.last != UInt8(SEAM_DUMP_END_DOCUMENT.rawValue) {
        fatalError("complete dump that does not end with END_DOCUMENT")
    }
    let snapshot = ProcessSnapshot(dump)
    _ = builder.report(for: snapshot, fileName: "fuzz.seamdump")
    _ = MinidumpWriter.bytes(for: MinidumpInput(snapshot: snapshot, hostFiles: hostFiles))
    return 0
}

private let builder = ReportBuilder(symbolicator: Symbolicator())
private let hostFiles = HostFiles.current
