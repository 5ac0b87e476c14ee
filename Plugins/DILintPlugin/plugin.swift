import Foundation
import PackagePlugin

/// `swift package di-lint [ARGUMENTS…]`: runs di-lint in the package's directory, so that its
/// `.di-lint.yml` is found and the paths are the package's. The arguments go to di-lint as they
/// are (`swift package di-lint Sources --baseline .di-lint-baseline.json`).
///
/// The di-lint run is the one in `$DI_LINT`, else the first on `PATH` (scripts/install puts it
/// there), so that a lint does not build di-lint and swift-syntax inside the package.
@main
struct DILintPlugin: CommandPlugin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try Self.locate()
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            throw Failure(description: "di-lint (\(tool.path)) ended by signal \(process.terminationStatus)")
        }
        if process.terminationStatus != 0 {
            throw Failure(
                description:
                    "di-lint exited \(process.terminationStatus) (1: findings at error severity; 2: usage or configuration error)"
            )
        }
    }

    /// `$DI_LINT`, else `di-lint` on `PATH`.
    static func locate() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let fm = FileManager.default
        if let path = environment["DI_LINT"], !path.isEmpty {
            guard fm.isExecutableFile(atPath: path) else {
                throw Failure(description: "DI_LINT=\(path) is not an executable file")
            }
            return URL(fileURLWithPath: path)
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("di-lint")
            if fm.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(
            description:
                "di-lint is not on PATH: install it (scripts/install in Seam's checkout, or the release package) or set DI_LINT=/path/to/di-lint"
        )
    }
}
