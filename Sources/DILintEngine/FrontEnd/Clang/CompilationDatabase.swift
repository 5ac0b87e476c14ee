import CLibClang
import Foundation

/// Reads `compile_commands.json` (`-p DIR`) through libclang, keeping the flags that matter for parsing.
///
/// The file is read first as every input is (`InputFile`: a regular file within `maxFileSize`,
/// opened without blocking — a FIFO or `/dev/zero` in its place is refused, not read without
/// end), checked as JSON and for response files (`ResponseFiles`), and libclang is handed a
/// private copy of the bytes checked, in a directory of its own (nothing else of `DIR` is read,
/// and the file cannot change between the check and the read).
public enum CompilationDatabase {
    public struct LoadError: Error, CustomStringConvertible {
        public let directory: String
        public var description: String { "\(directory): no readable compile_commands.json" }
    }

    /// The largest compile_commands.json read.
    public static let maxFileSize = 1 << 30

    /// Parse arguments for each absolute source path in the database.
    public static func load(directory: String) throws -> [String: [String]] {
        let file = URL(fileURLWithPath: directory).appendingPathComponent("compile_commands.json").path
        guard FileManager.default.fileExists(atPath: file) else { throw LoadError(directory: directory) }
        func fail(_ problem: String) -> ConfigError { .file(path: file, problem: problem) }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(file, limit: maxFileSize) } catch let refused as InputFile.Refused {
            throw fail(
                "cannot read the compile database: "
                    + refused.problem.replacingOccurrences(of: "(max-file-size)", with: "for a compile database"))
        }
        try check(bytes, file: file)
        let copy = try privateCopy(bytes)
        defer {
            unlink(copy + "/compile_commands.json")
            rmdir(copy)
        }
        var error = CXCompilationDatabase_NoError
        guard let db = clang_CompilationDatabase_fromDirectory(copy, &error), error == CXCompilationDatabase_NoError
        else {
            throw fail(
                "libclang could not read it as a compile database (an array of objects with 'directory', 'file' and 'arguments' or 'command')"
            )
        }
        defer { clang_CompilationDatabase_dispose(db) }
        var result: [String: [String]] = [:]
        guard let commands = clang_CompilationDatabase_getAllCompileCommands(db) else { return result }
        defer { clang_CompileCommands_dispose(commands) }
        for i in 0..<clang_CompileCommands_getSize(commands) {
            let command = clang_CompileCommands_getCommand(commands, i)
            let workingDirectory = clang_CompileCommand_getDirectory(command).consume()
            let file = clang_CompileCommand_getFilename(command).consume()
            let absolute = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: workingDirectory))
                .standardizedFileURL.path
            var args: [String] = []
            for j in 0..<clang_CompileCommand_getNumArgs(command) {
                args.append(clang_CompileCommand_getArg(command, j).consume())
            }
            result[absolute] =
                parseArguments(Array(args.dropFirst()), file: file, absolute: absolute) + [
                    "-working-directory=\(workingDirectory)"
                ]
        }
        return result
    }

    /// Checks the database's JSON (`JSONScanner`) and the response files its commands name
    /// (`ResponseFiles`): libclang reads both in this process, without bounds.
    static func check(_ bytes: [UInt8], file: String) throws {
        var responseFiles = ResponseFiles(database: file)
        do {
            try JSONScanner.scan(
                bytes, subject: "a compile database",
                remedy: "regenerate it (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, bear)"
            ) { scanner, _ in
                try scanner.elements { scanner, _ in
                    var directory = "", arguments: [String] = [], command: String?
                    try scanner.members { scanner, key in
                        switch key {
                        case "directory": directory = try scanner.string(field: 0)
                        case "arguments":
                            try scanner.elements { scanner, _ in arguments.append(try scanner.string(field: nil)) }
                        case "command": command = try scanner.string(field: nil)
                        default: try scanner.skipValue()
                        }
                    }
                    // libclang takes `arguments` when both are given
                    if arguments.isEmpty, let command { arguments = ResponseFiles.commandTokens(command) }
                    try responseFiles.check(arguments: arguments, directory: directory)
                }
                try scanner.finish()
            }
        } catch let problem as JSONScanner.Problem {
            throw ConfigError.file(path: file, problem: problem.description)
        }
    }

    /// A new private directory holding `bytes` as its compile_commands.json; the caller removes it.
    private static func privateCopy(_ bytes: [UInt8]) throws -> String {
        var template = Array((NSTemporaryDirectory() + "/di-lint-cdb-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ConfigError.invalid(
                "cannot create a temporary directory for the compile database (\(String(cString: strerror(errno))))")
        }
        let directory = String(cString: made)
        let path = directory + "/compile_commands.json"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ConfigError.invalid("cannot write \(path) (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ConfigError.invalid("cannot write \(path) (\(String(cString: strerror(errno))))") }
            written += n
        }
        return directory
    }

    /// Drops what a syntax-only parse must not see: outputs, dependency files, the source itself.
    static func parseArguments(_ args: [String], file: String, absolute: String) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for arg in args {
            if skipNext { skipNext = false; continue }
            switch arg {
            case "-c", "-MD", "-MMD", "-MP", "-fsyntax-only": continue
            case "-o", "-MF", "-MT", "-MQ", "--serialize-diagnostics": skipNext = true; continue
            case file, absolute: continue
            default:
                if arg.hasPrefix("-o") && arg.count > 2 && !arg.hasPrefix("-obj") { continue }
                kept.append(arg)
            }
        }
        return kept
    }
}
