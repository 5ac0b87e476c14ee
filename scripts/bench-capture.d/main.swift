// Benchmark for crash capture and processing (run by scripts/bench-capture; the package's
// BenchCapture target, so it is compiled with the library it measures).
// Usage: bench <CrashProbe path> <work directory> <crash runs> <dumps to process>
import CrashIntegration
import CrashRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let runs = Int(arguments[3]), let dumpCount = Int(arguments[4]) else {
    fputs("usage: bench <CrashProbe> <work-dir> <crash-runs> <dumps-to-process>\n", stderr)
    exit(2)
}
let probe = arguments[1]
let work = URL(fileURLWithPath: arguments[2])
try? FileManager.default.removeItem(at: work)

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
}

func describe(_ label: String, _ values: [Double], unit: String) {
    print(
        String(
            format: "%@: median %.3f %@, p90 %.3f %@, max %.3f %@ (n=%d)", label, percentile(values, 0.5), unit,
            percentile(values, 0.9), unit, values.max() ?? 0, unit, values.count))
}

/// Runs the probe once; returns its first output line and the spawn-to-reaped time in ms.
func crash(_ directory: URL, _ mode: String) throws -> (line: String, milliseconds: Double) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: probe)
    process.arguments = [directory.path, mode]
    process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    guard process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGSEGV else {
        fputs("bench: CrashProbe \(mode) did not die of SIGSEGV\n", stderr)
        exit(1)
    }
    return (printed.split(separator: "\n").first.map(String.init) ?? "", milliseconds)
}

// 1. Real crashes: install time (printed by the probe), handler entry to dump written
//    (timestamps inside the dump), dump size, and the crashing child's whole lifetime with
//    and without capture.
var installTimes: [Double] = [], inHandler: [Double] = [], sizes: [Double] = []
var lifetime: [Double] = [], rawLifetime: [Double] = []
var sample: URL?
for run in 0..<runs {
    let directory = work.appendingPathComponent("crash-\(run)")
    let (line, milliseconds) = try crash(directory, "segv")
    lifetime.append(milliseconds)
    rawLifetime.append(try crash(work.appendingPathComponent("raw"), "raw-segv").milliseconds)
    let words = line.split(separator: " ") // "installed <path> in <us> us"
    if words.count >= 4, let us = Double(words[3]) { installTimes.append(us) }
    guard let name = try FileManager.default.contentsOfDirectory(atPath: directory.path).first else {
        fputs("bench: run \(run) wrote no dump\n", stderr)
        exit(1)
    }
    let url = directory.appendingPathComponent(name)
    let dump = try IntermediateDump(contentsOf: url)
    guard dump.isComplete, let entry = dump.root.uint64(UInt16(SEAM_DK_HANDLER_ENTRY_MONO_NS.rawValue)),
        let exit = dump.root.uint64(UInt16(SEAM_DK_HANDLER_EXIT_MONO_NS.rawValue))
    else {
        fputs("bench: run \(run) wrote an incomplete dump: \(dump.incompleteReason ?? "no timestamps")\n", stderr)
        Glibc.exit(1)
    }
    inHandler.append(Double(exit - entry) / 1e3)
    sizes.append(Double((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0))
    sample = url
}
describe("seam_capture_install", installTimes, unit: "us")
describe("signal handler entry to dump written", inHandler, unit: "us")
describe("dump size", sizes, unit: "bytes")
describe("crashing child, spawn to reaped, capture installed", lifetime, unit: "ms")
describe("crashing child, spawn to reaped, no capture", rawLifetime, unit: "ms")

// 2. Processing: the same real dump copied dumpCount times into a pending directory.
let pending = work.appendingPathComponent("pending"), reports = work.appendingPathComponent("reports")
try FileManager.default.createDirectory(at: pending, withIntermediateDirectories: true)
let bytes = try Data(contentsOf: sample!)
for i in 0..<dumpCount {
    try bytes.write(to: pending.appendingPathComponent(String(format: "bench-%05d.\(intermediateDumpExtension)", i)))
}
let start = DispatchTime.now().uptimeNanoseconds
let summary = try processIntermediateDumps(in: pending, into: reports)
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
guard summary.reports.count == dumpCount else {
    fputs("bench: expected \(dumpCount) reports, got \(summary.reports.count): \(summary.failures)\n", stderr)
    exit(1)
}
print(
    String(
        format: "process %d pending dumps into reports: %.2f s (%.2f ms per dump)", dumpCount, seconds,
        seconds * 1000 / Double(dumpCount)))
try? FileManager.default.removeItem(at: work)
