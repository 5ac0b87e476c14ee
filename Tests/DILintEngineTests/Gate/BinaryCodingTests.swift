import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class BinaryCodingTests: XCTestCase {
    struct Everything: Codable, Equatable {
        enum Kind: String, Codable { case a, b }
        enum Shape: Codable, Equatable { case point, circle(radius: Double), named(String, Int) }
        var int = -42, int8: Int8 = -8, int16: Int16 = 1600, int32: Int32 = -32, int64 = Int64.min
        var uint: UInt = 7, uint8: UInt8 = 255, uint16: UInt16 = 65535, uint32 = UInt32.max, uint64 = UInt64.max
        var double = 3.25, float: Float = -0.5, flag = true, text = "héllo \u{0} \"world\""
        var missing: String? = nil, present: Int? = 9
        var list = [1, 2, 3], nested = [[String?]](arrayLiteral: ["x", nil], [])
        var map = ["k": Kind.a, "other key": .b]
        var bytes = Data([0, 1, 2, 255])
        var shapes: [Shape] = [.point, .circle(radius: 2), .named("n", -1)]
        var range = 3...9
        var set: Set<String> = ["p", "q"]
    }

    func testRoundTripsEveryKindOfValue() throws {
        var value = Everything()
        XCTAssertEqual(try BinaryCoding.decode(Everything.self, from: try BinaryCoding.encode(value)), value)
        value.missing = "now here"
        value.present = nil
        value.list = []
        XCTAssertEqual(try BinaryCoding.decode(Everything.self, from: try BinaryCoding.encode(value)), value)
    }

    func testRoundTripsARealFileOutcome() throws {
        let project = try GateProject(self, files: ["a.m": """
            @implementation R
            - (void)f {
                id a = self.bridge ? self.bridge.clock : [[Container sharedInstance] clock];
                // di-lint:disable-next-line container-access -- why not
                id b = [Container sharedInstance];
                id c = Container.sharedInstance.crashReporter;
            }
            @end

            """])
        let directory = try temporaryDirectory(self)
        let cache = try IncrementalCache(directory: directory.path, configuration: try project.configuration)
        let first = try project.lint(cache: cache)
        XCTAssertGreaterThanOrEqual(first.accesses.count, 4)
        let second = try project.lint(cache: cache)
        XCTAssertEqual(second.filesCached, 1)
        XCTAssertEqual(second.findings, first.findings)
        XCTAssertEqual(second.accesses, first.accesses)
    }

    func testTruncatedOrDamagedBytesThrowRatherThanCrash() throws {
        let bytes = try BinaryCoding.encode(Everything())
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try BinaryCoding.decode(Everything.self, from: Array(bytes[..<length])), "prefix \(length)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? BinaryCoding.decode(Everything.self, from: damaged) // may decode or throw; must not trap
        }
        XCTAssertThrowsError(try BinaryCoding.decode(Everything.self, from: bytes + [0]), "trailing bytes")
    }
}
