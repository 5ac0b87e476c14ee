import Foundation
import XCTest
@testable import DILintEngine

/// The byte form of `signal-handler-safety`'s per-file facts (what the cache stores and each run decodes).
final class CallGraphFactsBytesTests: XCTestCase {
    private func everything() -> CallGraphFacts {
        let main = Symbol(usr: "c:@F@on_crash", name: "on_crash")
        let slot = Symbol(usr: "c:@handlers", name: "handlers")
        let here = SitePosition(line: 3, column: -1, offset: 77)
        return CallGraphFacts(
            functions: [
                FunctionFact(
                    symbol: main, position: here,
                    sites: [
                        CallSite(
                            kind: .call, target: Symbol(usr: "c:@F@write", name: "write"), trait: .swift, detail: nil,
                            position: here),
                        CallSite(
                            kind: .objcMessage, target: nil, trait: nil, detail: "dateProvider",
                            position: SitePosition(line: Int.max, column: 0, offset: Int.min)),
                        CallSite(
                            kind: .pointerCall, target: slot, trait: .systemInline, detail: "", position: here,
                            onErrorPath: true),
                        CallSite(
                            kind: .call, target: Symbol(usr: "name:LOG", name: "LOG"), detail: "read from tokens",
                            position: here, invocation: ["(", "error", ",", "\"x\"", ")"]),
                    ], unresolvedStatements: 3, shimCondition: "#if !defined(HAVE_SNPRINTF)")
            ],
            stores: [PointerStore(slot: slot, value: main), PointerStore(slot: slot, value: nil)],
            registrations: [
                HandlerRegistration(handler: main, mechanism: .terminate, position: here),
                HandlerRegistration(handler: slot, mechanism: .sigaction, position: here, throughSlot: true),
            ],
            annotated: [main, slot],
            swiftExports: ["seam_swift_hook"],
            installingParameters: [ParameterUse(function: main, index: 1, mechanism: .signal)],
            forwards: [ParameterForward(function: main, parameter: 0, callee: slot, argument: 2)],
            functionArguments: [FunctionArgument(callee: slot, argument: 1, value: main, position: here)],
            macros: ["LOG_DEBUG"],
            signalArguments: [FunctionArgument(callee: main, argument: 1, value: slot, position: here)],
            macroDefinitions: [
                MacroDefinition(
                    name: "LOG", parameters: ["fmt", "__VA_ARGS__"], variadic: true,
                    body: ["log_write", "(", "fmt", ")"]),
                MacroDefinition(name: "DIE", parameters: nil, variadic: false, body: ["abort", "(", ")"]),
            ],
            includedFiles: ["sflib.h", "log.h"])
    }

    func testRoundTripsEveryField() throws {
        XCTAssertEqual(try CallGraphFacts(encoded: everything().encoded), everything())
        XCTAssertEqual(try CallGraphFacts(encoded: CallGraphFacts().encoded), CallGraphFacts())
    }

    /// The codec names each field; a field added to a facts type must be added to it (and here).
    func testTheCodecKnowsEveryStoredField() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let facts = everything()
        XCTAssertEqual(
            labels(facts),
            [
                "functions", "stores", "registrations", "annotated", "swiftExports",
                "installingParameters", "forwards", "functionArguments", "macros", "signalArguments",
                "macroDefinitions", "includedFiles",
            ])
        XCTAssertEqual(
            labels(facts.functions[0]), ["symbol", "position", "sites", "unresolvedStatements", "shimCondition"])
        XCTAssertEqual(
            labels(facts.functions[0].sites[0]),
            ["kind", "target", "trait", "detail", "position", "onErrorPath", "invocation"])
        XCTAssertEqual(labels(facts.functions[0].position), ["line", "column", "offset"])
        XCTAssertEqual(labels(facts.functions[0].symbol), ["usr", "name"])
        XCTAssertEqual(labels(facts.stores[0]), ["slot", "value"])
        XCTAssertEqual(labels(facts.registrations[0]), ["handler", "mechanism", "position", "throughSlot"])
        XCTAssertEqual(labels(facts.installingParameters[0]), ["function", "index", "mechanism"])
        XCTAssertEqual(labels(facts.forwards[0]), ["function", "parameter", "callee", "argument"])
        XCTAssertEqual(labels(facts.functionArguments[0]), ["callee", "argument", "value", "position"])
        XCTAssertEqual(labels(facts.macroDefinitions[0]), ["name", "parameters", "variadic", "body"])
    }

    /// Facts extracted from the crash library's C runtime survive the trip, byte for byte.
    func testRealFactsRoundTrip() throws {
        let runtime = packageRoot.appendingPathComponent("Sources/CrashRuntime")
        let files = try FileCollector(excludes: [], baseDirectory: runtime.path).collect([runtime.path])
        var configuration = Configuration()
        configuration.clangFlags = ["-I" + runtime.appendingPathComponent("include").path]
        let cache = MemoryCache()
        let linter = Linter(configuration: configuration)
        linter.cache = cache
        _ = linter.lint(files: files)
        let stored = cache.outcomes.compactMap { $0.facts["signal-handler-safety"] }
        XCTAssertGreaterThan(stored.count, 5)
        var functions = 0
        for data in stored {
            let facts = try CallGraphFacts(encoded: data)
            functions += facts.functions.count
            XCTAssertEqual(facts.encoded, data)
        }
        XCTAssertGreaterThan(functions, 20)
    }

    func testTruncatedOrDamagedBytesThrowRatherThanCrash() {
        let bytes = everything().encoded
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try CallGraphFacts(encoded: bytes.prefix(length)), "prefix \(length)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? CallGraphFacts(encoded: damaged) // may decode or throw; must not trap
        }
        XCTAssertThrowsError(try CallGraphFacts(encoded: bytes + [0]), "trailing bytes")
    }
}
