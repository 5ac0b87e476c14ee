import CrashRuntime

/// Lookups by the C enum of `seam_dump_format.h`, so key numbers are written only there.
extension DumpMap {
    func map(_ key: seam_dump_key) -> DumpMap? { map(UInt16(key.rawValue)) }
    func array(_ key: seam_dump_key) -> [DumpMap] { array(UInt16(key.rawValue)) }
    func bytes(_ key: seam_dump_key) -> [UInt8]? { bytes(UInt16(key.rawValue)) }
    func uint64(_ key: seam_dump_key) -> UInt64? { uint64(UInt16(key.rawValue)) }
    func string(_ key: seam_dump_key) -> String? { string(UInt16(key.rawValue)) }
}
