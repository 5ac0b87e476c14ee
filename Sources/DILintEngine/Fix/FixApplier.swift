import Foundation

/// Writes a verified plan: every file is checked against its planned digest first (if any has
/// changed since planning, nothing is written), then each is replaced atomically — a temporary
/// file in the same directory with the original's mode, then `rename` — so a reader sees the old
/// file or the new one, never half of one. Bytes outside the edits are kept exactly: line
/// endings, comments, indentation.
public enum FixApplier {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the plan's edits; returns the real paths written.
    @discardableResult
    public static func apply(_ plan: FixPlan) throws -> [String] {
        let byFile = plan.editsByFile
        var contents: [(path: String, bytes: [UInt8], mode: mode_t)] = []
        for (path, edits) in byFile.sorted(by: { $0.key < $1.key }) {
            guard let bytes = readFileBytes(path) else { throw Failure(description: "\(path): cannot read it; nothing written") }
            guard SHA256.hex(bytes) == plan.digests[path] else {
                throw Failure(description: "\(path): changed since the fix was planned; nothing written (run fix again)")
            }
            var st = stat()
            guard stat(path, &st) == 0 else { throw Failure(description: "\(path): cannot stat it; nothing written") }
            contents.append((path, EditApplication.apply(edits, to: bytes), st.st_mode & 0o7777))
        }
        var written: [String] = []
        for file in contents {
            try writeAtomically(file.bytes, to: file.path, mode: file.mode)
            written.append(file.path)
        }
        return written
    }

    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/.\(name).di-lint-fix.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "\(path): cannot create a temporary file beside it (\(String(cString: strerror(errno))))") }
        let temporary = String(cString: template)
        var ok = fchmod(fd, mode) == 0
        var offset = 0
        while ok && offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { ok = false } else { offset += n }
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "\(path): cannot write it (\(reason)); the file is unchanged")
        }
    }
}
