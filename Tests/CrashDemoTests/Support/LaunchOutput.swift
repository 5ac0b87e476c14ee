import Foundation

/// The parts of a final crash report (one JSON line of `crash-demo launch`) the tests check.
/// Decoded independently of the library's types, from the wire format.
struct ReportLine: Decodable {
    struct Signal: Decodable {
        let number: Int
        let name: String
    }

    struct Exception: Decodable {
        let type: String
        let what: String?
    }

    struct Frame: Decodable {
        let address: String
        let module: String?
        let function: String?
    }

    struct CrashedThread: Decodable {
        let name: String?
        let frames: [Frame]
        let framesElided: Int?
    }

    struct Thread: Decodable {
        let name: String
        let crashed: Bool
        let context: String?
        let frames: [Frame]?
    }

    /// The intermediate dump the report was made from; the report file shares its name.
    let dumpFile: String?
    let signal: Signal?
    let exception: Exception?
    let crashedThread: CrashedThread?
    let threads: [Thread]?
    let annotations: [String: String]
    let incomplete: Bool?
    let fatalErrorMessage: String?
    let terminateMessage: String?

    /// The raw line, for failure messages and byte-level comparisons.
    var json = ""

    enum CodingKeys: String, CodingKey {
        case dumpFile, signal, exception, crashedThread, threads, annotations, incomplete, fatalErrorMessage,
            terminateMessage
    }

    /// The crashed thread's function names, innermost first ("?" where unsymbolicated).
    var functions: [String] { crashedThread?.frames.map { $0.function ?? "?" } ?? [] }

    /// The first crashed-thread frame whose function contains `name`.
    func frame(named name: String) -> Frame? {
        crashedThread?.frames.first { $0.function?.contains(name) == true }
    }
}

/// `crash-demo status: {...}` on stderr.
struct LaunchStatusLine: Decodable {
    static let prefix = "crash-demo status: "

    let crashedLastLaunch: Bool
    let newReports: Int
    let uploaded: Int?
    let uploadWillRetry: Int?
    let uploadRejected: Int?
}

enum LaunchOutputError: Error, CustomStringConvertible {
    case noStatusLine(stderr: String)
    case badLine(String, Error)

    var description: String {
        switch self {
        case .noStatusLine(let stderr): return "no \"\(LaunchStatusLine.prefix)\" line on stderr:\n\(stderr)"
        case .badLine(let line, let error): return "cannot decode \(line): \(error)"
        }
    }
}

extension ChildRun {
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// Every stdout line, decoded as a report. A run killed by a signal may have been stopped in
    /// the middle of writing a line: its last line, if it has no newline yet, is not a report.
    func reports() throws -> [ReportLine] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: true)
        if diedOfSignal != nil, !stdout.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        return try lines.map { line in
            do {
                var report = try Self.decoder.decode(ReportLine.self, from: Data(line.utf8))
                report.json = String(line)
                return report
            } catch {
                throw LaunchOutputError.badLine(String(line), error)
            }
        }
    }

    /// The status line `launch` writes on stderr.
    func launchStatus() throws -> LaunchStatusLine {
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix(LaunchStatusLine.prefix) }) else {
            throw LaunchOutputError.noStatusLine(stderr: stderr)
        }
        let json = line.dropFirst(LaunchStatusLine.prefix.count)
        do {
            return try Self.decoder.decode(LaunchStatusLine.self, from: Data(json.utf8))
        } catch {
            throw LaunchOutputError.badLine(String(line), error)
        }
    }
}
