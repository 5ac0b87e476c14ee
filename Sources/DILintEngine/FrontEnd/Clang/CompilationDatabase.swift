import CLibClang
import Foundation

/// Reads `compile_commands.json` (`-p DIR`) through libclang, keeping the flags that matter for parsing.
public enum CompilationDatabase {
    public struct LoadError: Error, CustomStringConvertible {
        public let directory: String
        public var description: String { "\(directory): no readable compile_commands.json" }
    }

    /// Parse arguments for each absolute source path in the database.
    public static func load(directory: String) throws -> [String: [String]] {
        var error = CXCompilationDatabase_NoError
        guard let db = clang_CompilationDatabase_fromDirectory(directory, &error), error == CXCompilationDatabase_NoError else {
            throw LoadError(directory: directory)
        }
        defer { clang_CompilationDatabase_dispose(db) }
        var result: [String: [String]] = [:]
        guard let commands = clang_CompilationDatabase_getAllCompileCommands(db) else { return result }
        defer { clang_CompileCommands_dispose(commands) }
        for i in 0..<clang_CompileCommands_getSize(commands) {
            let command = clang_CompileCommands_getCommand(commands, i)
            let workingDirectory = clang_CompileCommand_getDirectory(command).consume()
            let file = clang_CompileCommand_getFilename(command).consume()
            let absolute = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: workingDirectory)).standardizedFileURL.path
            var args: [String] = []
            for j in 0..<clang_CompileCommand_getNumArgs(command) { args.append(clang_CompileCommand_getArg(command, j).consume()) }
            result[absolute] = parseArguments(Array(args.dropFirst()), file: file, absolute: absolute) + ["-working-directory=\(workingDirectory)"]
        }
        return result
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
