import CLibClang
import Foundation

/// A file on disk as libclang tells files apart (device and inode).
struct SourceFileKey: Hashable {
    /// The file at `path`, nil when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    let device: UInt64
    let inode: UInt64
}

extension ParsedFile {
    private final class Inclusions { var keys = Set<SourceFileKey>() }

    /// The files a translation unit read (`#include`d or `#import`ed at any depth), the main file included.
    static func inclusions(_ unit: CXTranslationUnit) -> Set<SourceFileKey> {
        let found = Inclusions()
        clang_getInclusions(
            unit,
            { file, _, _, data in
                guard let file, let data else { return }
                var id = CXFileUniqueID()
                guard clang_getFileUniqueID(file, &id) == 0 else { return }
                Unmanaged<Inclusions>.fromOpaque(data).takeUnretainedValue().keys.insert(
                    SourceFileKey(device: id.data.0, inode: id.data.1))
            }, Unmanaged.passUnretained(found).toOpaque())
        return withExtendedLifetime(found) { found.keys }
    }

    /// The paths of the files a translation unit read at `minimumDepth` or deeper (0: the main
    /// file too, 1: what it includes), as libclang names them. A unit that read a saved parse
    /// (`-include-pch`) does not list that parse's files: `ParsedFile.savedParseInclusions` does.
    static func inclusionPaths(_ unit: CXTranslationUnit, minimumDepth: Int) -> [String] {
        final class Box {
            let minimumDepth: Int
            var paths: [String] = []
            init(_ depth: Int) { minimumDepth = depth }
        }
        let box = Box(minimumDepth)
        clang_getInclusions(
            unit,
            { file, _, depth, data in
                guard let file, let data else { return }
                let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
                if Int(depth) >= box.minimumDepth { box.paths.append(clang_getFileName(file).consume()) }
            }, Unmanaged.passUnretained(box).toOpaque())
        return withExtendedLifetime(box) { box.paths }
    }

    /// The parse's error diagnostics (errors and fatal errors), in libclang's order, each with its
    /// offset when it lies in the file itself, else the name and line of the file it lies in.
    /// Read before `disposeUnit()`.
    func errorDiagnostics() -> [ParseDiagnostic] {
        precondition(!unitDisposed, "the diagnostics of \(path) were asked for after its translation unit was freed")
        var errors: [ParseDiagnostic] = []
        for i in 0..<clang_getNumDiagnostics(unit) {
            let d = clang_getDiagnostic(unit, i)
            if clang_getDiagnosticSeverity(d).rawValue >= CXDiagnostic_Error.rawValue {
                var cFile: CXFile?
                var line: UInt32 = 0, offset: UInt32 = 0
                clang_getFileLocation(clang_getDiagnosticLocation(d), &cFile, &line, nil, &offset)
                let inFile = cFile != nil && file != nil && clang_File_isEqual(cFile, file) != 0
                let otherPath = inFile ? nil : cFile.map { clang_getFileName($0).consume() }
                errors.append(
                    ParseDiagnostic(
                        message: clang_getDiagnosticSpelling(d).consume(), offset: inFile ? Int(offset) : nil,
                        elsewhere: otherPath.map { "\(($0 as NSString).lastPathComponent):\(line)" },
                        elsewherePath: otherPath))
            }
            clang_disposeDiagnostic(d)
        }
        return errors
    }
}
