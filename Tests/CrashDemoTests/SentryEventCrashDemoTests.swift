import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration

/// The Sentry event of every crash-demo kind, checked with sentry-relay's normaliser (what
/// Sentry's ingestion applies): no errors, and after normalisation the event's threads and
/// frames are the report's — function, module, file, line, `in_app`, address — with the crashed
/// thread's registers and the fatal-error or terminate message as the exception value.
final class SentryEventCrashDemoTests: XCTestCase {
    static let kinds = [
        "segv", "abort", "fatal-error", "fpe", "stack-overflow", "cpp-exception", "background-thread",
        "threads-8", "stack-overflow-thread", "stack-overflow-task", "fatal-error-message", "threads-report",
    ]

    func testEveryKindsEventPassesRelayAndCarriesTheReportsThreadsAndFrames() throws {
        guard
            try MinidumpReaders.run("/usr/bin/env", ["python3", "-c", "import sentry_relay"], timeout: 60).status == 0
        else {
            throw XCTSkip("python3 has no sentry_relay (pip install sentry-relay; scripts/bootstrap installs it)")
        }
        var reports: [String: CrashReport] = [:]
        var eventFiles: [String] = []
        for kind in Self.kinds {
            let store = DemoStoreDirectory(self)
            let crash = try CrashDemoProcess.run(["--store", store.path, "crash", kind], backtracer: .disabled)
            XCTAssertNotNil(crash.diedOfSignal, crash.summary)
            let launch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
            XCTAssertTrue(launch.exitedCleanly, launch.summary)
            let reportFile = try XCTUnwrap(store.reportFiles.first, "\(kind): no report")
            let report = try JSONDecoder().decode(CrashReport.self, from: Data(contentsOf: reportFile))
            reports[kind] = report
            var bytes: [UInt8] = []
            ReportJSON.write(SentryEvent.json(report, eventID: SentryEvent.eventID(forReport: kind)), into: &bytes)
            let eventFile = store.url.appendingPathComponent("\(kind).event.json")
            try Data(bytes).write(to: eventFile)
            eventFiles.append(eventFile.path)
            if kind == "threads-report" { assertParkedThreadsHaveSourceLines(report) }
        }
        let normalizer = repositoryRoot.appendingPathComponent("scripts/sentry-normalize").path
        let run = try MinidumpReaders.run("/usr/bin/env", ["python3", normalizer] + eventFiles, timeout: 300)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, Self.kinds.count, run.stdout.prefix(2000) + run.stderr)
        for (kind, line) in zip(Self.kinds, lines) {
            let output = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual((output["errors"] as? [Any])?.count, 0, "\(kind): relay's errors: \(output["errors"] ?? "")")
            let event = try XCTUnwrap(output["event"] as? [String: Any])
            try assertEvent(event, equals: try XCTUnwrap(reports[kind]), kind: kind)
        }
    }

    private func assertEvent(_ event: [String: Any], equals report: CrashReport, kind: String) throws {
        let exception = try XCTUnwrap(
            ((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first, kind)
        let crashed = try XCTUnwrap(report.crashedThread, kind)
        let message = report.fatalErrorMessage ?? report.terminateMessage
        if let message {
            XCTAssertEqual(exception["value"] as? String, message, "\(kind): the message is the exception value")
        }
        if ["fatal-error", "fatal-error-message", "cpp-exception"].contains(kind) {
            XCTAssertNotNil(message, "\(kind) has a message")
        }
        let stacktrace = try XCTUnwrap(exception["stacktrace"] as? [String: Any], kind)
        XCTAssertEqual(
            stacktrace["registers"] as? [String: String], crashed.registers, "\(kind): the crashed thread's registers")
        XCTAssertFalse(crashed.registers.isEmpty, kind)
        let crashedFrames = crashed.frames + (crashed.asyncFrames ?? [])
        XCTAssertEqual(try eventFrames(stacktrace), expected(crashedFrames, report), "\(kind): exception frames")
        if let elided = crashed.framesElided, elided > 0 {
            let data = (exception["mechanism"] as? [String: Any])?["data"] as? [String: Any]
            XCTAssertEqual(data?["frames_elided"] as? Int, elided, "\(kind): elided frames survive ingestion")
        }
        XCTAssertTrue(try eventFrames(stacktrace).contains { $0.inApp }, "\(kind): the program's own frames are in_app")

        let threads = try XCTUnwrap((event["threads"] as? [String: Any])?["values"] as? [[String: Any]], kind)
        XCTAssertEqual(
            threads.compactMap { $0["id"] as? UInt64 }, report.threads.map(\.id), "\(kind): every thread, in order")
        var located = 0
        for thread in report.threads {
            let value = try XCTUnwrap(
                threads.first { $0["id"] as? UInt64 == thread.id }, "\(kind): thread \(thread.id)")
            XCTAssertEqual(value["crashed"] as? Bool, thread.crashed, kind)
            let frames = thread.crashed && thread.id == crashed.id ? crashedFrames : (thread.frames ?? [])
            let stack = value["stacktrace"] as? [String: Any]
            XCTAssertEqual(
                try stack.map(eventFrames) ?? [], expected(frames, report), "\(kind): frames of thread \(thread.id)")
            if !thread.crashed { located += (thread.frames ?? []).filter { $0.line != nil }.count }
        }
        if report.threads.contains(where: { !$0.crashed && !($0.frames ?? []).isEmpty }) {
            XCTAssertGreaterThan(located, 0, "\(kind): other threads' frames have lines")
        }
    }

    /// The parked threads of threads-report: file and line on the function each one waits in.
    private func assertParkedThreadsHaveSourceLines(_ report: CrashReport) {
        let parked = report.threads.filter { $0.name.hasPrefix("crash-demo-pk") }
        XCTAssertEqual(parked.count, 4, "\(report.threads.map(\.name))")
        for thread in parked {
            let frame = thread.frames?.first {
                $0.function?.contains("parkedThreadWaits") == true && $0.inlined != true
            }
            XCTAssertEqual(
                frame?.file?.hasSuffix("Examples/CrashDemo/ServerCrashers.swift"), true,
                "\(thread.name): \(String(describing: frame))")
            XCTAssertGreaterThan(frame?.line ?? 0, 0, "\(thread.name): \(String(describing: frame))")
        }
    }

    private struct EventFrame: Equatable, CustomStringConvertible {
        var address: String?, function: String?, module: String?, file: String?, line: Int?, inApp: Bool
        var description: String { "\(address ?? "-") \(function ?? "-") \(file ?? "-"):\(line ?? 0) in_app=\(inApp)" }
    }

    private func eventFrames(_ stacktrace: [String: Any]) throws -> [EventFrame] {
        try XCTUnwrap(stacktrace["frames"] as? [[String: Any]]).map { frame in
            EventFrame(
                address: frame["instruction_addr"] as? String, function: frame["function"] as? String,
                module: frame["package"] as? String, file: frame["filename"] as? String, line: frame["lineno"] as? Int,
                inApp: frame["in_app"] as? Bool ?? false)
        }
    }

    /// The report's frames as the event must carry them: outermost first; `in_app` for the
    /// program's own modules (the executable's directory).
    private func expected(_ frames: [CrashReport.Frame], _ report: CrashReport) -> [EventFrame] {
        let own =
            (report.process.executable.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
                ?? "/nonexistent") + "/"
        return frames.reversed().map { frame in
            EventFrame(
                address: frame.address, function: frame.function, module: frame.module, file: frame.file,
                line: frame.line,
                inApp: frame.module?.hasPrefix(own) ?? false)
        }
    }

    private var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}
