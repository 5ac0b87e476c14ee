import Foundation
import XCTest
@testable import CrashIntegration

/// The hand-written report JSON must be exactly what JSONEncoder writes for the Codable model.
final class ReportJSONTests: XCTestCase {
    func reference(_ report: CrashReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    func testMatchesJSONEncoderByteForByte() throws {
        let awkward = "quote\" back\\slash /slash\nnew\ttab\r\u{01}\u{1f}\u{08}\u{0c} é 日本 🧨"
        let full = CrashReport(
            dumpFile: "a.seamdump", dumpFormatVersion: 1, incomplete: true, incompleteReasons: [awkward, "x"],
            crashTime: "2026-11-22T04:00:00Z", handlerDurationNs: 123_456,
            process: .init(pid: 42, parentPid: 1, executable: "/usr/bin/demo", installTime: nil),
            signal: .init(
                number: 11, name: "SIGSEGV", code: 1, codeName: "SEGV_MAPERR", address: "0x8", senderPid: nil),
            exception: .init(type: "std::runtime_error", mangledType: "St13runtime_error", what: awkward),
            crashedThread: .init(
                id: 7, name: awkward, architecture: "x86_64", registers: ["rip": "0x1", "rax": "0x0", "r10": "0x2"],
                frames: [
                    .init(
                        index: 0, address: "0x10", trust: "context", module: "demo", moduleOffset: "0x10",
                        function: "main", mangledFunction: "$s4main", functionOffset: 4),
                    .init(
                        index: 1, address: "0x20", trust: "scan", module: nil, moduleOffset: nil,
                        function: nil, mangledFunction: nil, functionOffset: nil),
                ]),
            threads: [.init(id: 7, name: "main", crashed: true), .init(id: 8, name: "", crashed: false)],
            modules: [.init(path: "/lib/x.so", buildId: "abcd", base: "0x0", start: nil, end: "0xff", symbols: "ok")],
            system: ["os.name": "Linux", "a_b": "1", "a.b": "2", "aB": "3"], annotations: [:])
        XCTAssertEqual(String(decoding: ReportJSON.data(full), as: UTF8.self), try reference(full))

        let sparse = CrashReport(
            dumpFile: "b", dumpFormatVersion: 0, incomplete: false, incompleteReasons: [],
            crashTime: nil, handlerDurationNs: nil,
            process: .init(pid: nil, parentPid: nil, executable: nil, installTime: nil),
            signal: nil, exception: nil, crashedThread: nil, threads: [], modules: [], system: [:], annotations: [:])
        XCTAssertEqual(String(decoding: ReportJSON.data(sparse), as: UTF8.self), try reference(sparse))
        XCTAssertEqual(try JSONDecoder().decode(CrashReport.self, from: ReportJSON.data(full)), full)
    }
}
