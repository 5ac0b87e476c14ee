import Foundation
import XCTest
@testable import DILintEngine

/// The linter never crashes on a file it cannot parse: it reports why, names the file, and goes on.
final class BadInputTests: XCTestCase {
    let config = "containers: [Container.sharedInstance]\n"

    func testBinaryHugeAndInvalidUTF8FilesAreReportedAndTheRunGoesOn() throws {
        let dir = try temporaryDirectory(self)
        let binary = dir.appendingPathComponent("binary.m")
        try Data([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x5b]).write(to: binary)
        let huge = dir.appendingPathComponent("huge.m")
        try Data(repeating: UInt8(ascii: "x"), count: 2_000).write(to: huge)
        let latin1 = dir.appendingPathComponent("latin1.m")
        var bytes = Array("// caf\u{e9} in Latin-1: ".utf8)
        bytes += [0xe9, 0xff, 0xfe, 0x0a]
        bytes += Array("void f(void) { id c = [Container sharedInstance]; }\n".utf8)
        try Data(bytes).write(to: latin1)
        let good = dir.appendingPathComponent("good.m")
        try "void g(void) { id c = Container.sharedInstance.crashReporter; }\n".write(
            to: good, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("vanished.m").path

        let result = try lint(
            [binary.path, huge.path, latin1.path, good.path, missing], configYAML: config + "max-file-size: 1000\n")
        let failures = Dictionary(
            uniqueKeysWithValues: result.findings.filter { $0.rule == "parse-failure" }.map { ($0.path, $0.message) })
        XCTAssertEqual(failures.count, 3)
        XCTAssertTrue(failures[binary.path]?.contains("binary file (NUL byte at offset 4)") == true, "\(failures)")
        XCTAssertTrue(failures[huge.path]?.contains("2000 bytes, over the 1000-byte limit") == true, "\(failures)")
        XCTAssertTrue(failures[missing]?.contains("cannot read it") == true, "\(failures)")
        XCTAssertEqual(result.filesFailed, 3)
        // invalid UTF-8 in a comment is no reason to skip the file
        let accesses = result.findings.filter { $0.rule == "container-access" }
        XCTAssertEqual(accesses.map(\.path), [good.path, latin1.path].sorted())
        XCTAssertEqual(accesses.first { $0.path == latin1.path }?.line, 2)
    }

    func testFilesAreReadWhole() throws {
        let dir = try temporaryDirectory(self)
        let empty = dir.appendingPathComponent("empty.m"), big = dir.appendingPathComponent("big.m")
        try Data().write(to: empty)
        let content = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 31) }
        try Data(content).write(to: big)
        XCTAssertEqual(readFileBytes(empty.path), [])
        XCTAssertEqual(readFileBytes(big.path), content)
        // /proc files report size 0 but have content: read to the end, not to the size.
        XCTAssertEqual(
            readFileBytes("/proc/self/status").map { String(decoding: $0, as: UTF8.self).hasPrefix("Name:") }, true)
        XCTAssertNil(readFileBytes(dir.appendingPathComponent("missing.m").path))
        XCTAssertNil(readFileBytes(dir.path), "a directory is not a file")
    }

    func testMissingHeadersAreNotFailures() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("headerless.m")
        try """
        #import <UIKit/UIKit.h>
        #import "Generated-Swift.h"
        #include <missing/everything.h>
        @implementation Thing
        - (void)run { [[[Container sharedInstance] crashReporter] install]; }
        @end
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try lint([file.path], configYAML: config)
        XCTAssertEqual(result.filesFailed, 0)
        XCTAssertEqual(
            result.findings.map { "\($0.rule) \($0.line):\($0.column) \($0.access?.expression ?? "")" },
            ["container-access 5:17 Container.sharedInstance.crashReporter"])
    }

    func testCommentsThatAreNotUTF8KeepSwiftCommentRangesInTheFile() throws {
        // swift-syntax measures a trivia piece by its text as a String, where each bad byte is a
        // 3-byte U+FFFD: the comments after one such comment used to reach past the end of the
        // file, and reading them trapped (a fuzz file; SIGILL).
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("bad.swift")
        let bytes =
            Array("let a = Container.sharedInstance.crashReporter\n// ".utf8) + [UInt8](repeating: 0xFF, count: 100)
            + Array("\n// di-lint:disable-next-line container-access -- after the bad bytes\n// tail\n".utf8)
        try Data(bytes).write(to: file)
        let result = try lint([file.path], configYAML: config)
        XCTAssertEqual(result.filesFailed, 0)
        XCTAssertEqual(result.findings.filter { $0.rule == "container-access" }.map(\.line), [1])
    }

    func testGarbageSourceDoesNotCrashTheLinter() throws {
        let dir = try temporaryDirectory(self)
        var files: [String] = []
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("[]{}()@#;:.,->*&^%$!?~`'\"\\/ \n\tabcdefContainer sharedInstance ".utf8)
        for n in 0..<40 {
            let length = Int.random(in: 0..<4000, using: &generator)
            let bytes = (0..<length).map { _ in
                n % 4 == 0 ? UInt8.random(in: 1...255, using: &generator) : alphabet.randomElement(using: &generator)!
            }
            let file = dir.appendingPathComponent("garbage\(n).\(["m", "c", "cpp", "h", "mm"][n % 5])")
            try Data(bytes).write(to: file)
            files.append(file.path)
        }
        // deeply nested brackets and an unterminated comment and string
        let nested = dir.appendingPathComponent("nested.m")
        try
            (String(repeating: "[", count: 5000) + "Container sharedInstance" + String(repeating: "]", count: 10)
            + "\n/* never closed \"").write(to: nested, atomically: true, encoding: .utf8)
        files.append(nested.path)
        let result = try lint(files, configYAML: config)
        XCTAssertTrue(
            result.findings.contains {
                $0.path == nested.path && $0.rule == "parse-failure" && $0.message.contains("nest 5000 deep")
            })
        XCTAssertEqual(result.filesChecked, files.count)
        // a file of only whitespace and comments (random bytes make one now and then) is not parsed
        let blank = try files.filter { BlankSource.isBlank(Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) }
            .count
        XCTAssertEqual(result.filesParsed + result.filesFailed + blank, files.count)
    }
}
