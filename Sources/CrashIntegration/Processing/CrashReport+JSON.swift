import Foundation

/// Compact JSON for reports, byte for byte what `JSONEncoder` with `[.sortedKeys,
/// .withoutEscapingSlashes]` writes (a test holds the two together), written directly: the
/// generic encoder was a third of the time of processing a thousand dumps.
enum ReportJSON {
    indirect enum Value {
        case string(String), integer(Int64), unsigned(UInt64), bool(Bool)
        case array([Value]), object([(String, Value)])
    }

    static func data(_ report: CrashReport) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(16 << 10)
        write(report.json, into: &out)
        return Data(out)
    }

    static func write(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case let .string(s): writeString(s, into: &out)
        case let .integer(n): out += Array(String(n).utf8)
        case let .unsigned(n): out += Array(String(n).utf8)
        case let .bool(b): out += Array((b ? "true" : "false").utf8)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(fields):
            out.append(UInt8(ascii: "{"))
            for (i, field) in fields.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(field.0, into: &out)
                out.append(UInt8(ascii: ":"))
                write(field.1, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0a: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0d: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0c: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xf)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Object fields named by the Codable model's keys (so each field is spelled once), leaving out
/// nil optionals as `encodeIfPresent` does.
private struct Fields<Key: CodingKey> {
    var items: [(String, ReportJSON.Value)] = []
    mutating func add(_ key: Key, _ value: ReportJSON.Value?) {
        if let value { items.append((key.stringValue, value)) }
    }
    var object: ReportJSON.Value { .object(items) }
}

private extension String { var json: ReportJSON.Value { .string(self) } }
private extension Optional where Wrapped == String { var json: ReportJSON.Value? { map { .string($0) } } }
private extension Optional where Wrapped == UInt64 { var json: ReportJSON.Value? { map { .unsigned($0) } } }
private extension Optional where Wrapped == Int { var json: ReportJSON.Value? { map { .integer(Int64($0)) } } }
private extension Optional where Wrapped == Bool { var json: ReportJSON.Value? { map { .bool($0) } } }
private extension Dictionary where Key == String, Value == String {
    var json: ReportJSON.Value { .object(map { ($0.key, .string($0.value)) }) }
}

extension CrashReport {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.schemaVersion, .integer(Int64(schemaVersion)))
        f.add(.dumpFile, dumpFile.json)
        f.add(.dumpFormatVersion, .unsigned(UInt64(dumpFormatVersion)))
        f.add(.incomplete, .bool(incomplete))
        f.add(.incompleteReasons, .array(incompleteReasons.map(\.json)))
        f.add(.crashTime, crashTime.json)
        f.add(.handlerDurationNs, handlerDurationNs.json)
        f.add(.process, process.json)
        f.add(.signal, signal?.json)
        f.add(.exception, exception?.json)
        f.add(.fatalErrorMessage, fatalErrorMessage.json)
        f.add(.terminateMessage, terminateMessage.json)
        f.add(.crashedThread, crashedThread?.json)
        f.add(.threads, .array(threads.map(\.json)))
        f.add(.modules, .array(modules.map(\.json)))
        f.add(.system, system.json)
        f.add(.annotations, annotations.json)
        f.add(.os, os?.json)
        f.add(.app, app?.json)
        return f.object
    }
}

extension CrashReport.Process {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.pid, pid.json)
        f.add(.parentPid, parentPid.json)
        f.add(.executable, executable.json)
        f.add(.installTime, installTime.json)
        return f.object
    }
}

extension CrashReport.Signal {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.number, .integer(Int64(number)))
        f.add(.name, name.json)
        f.add(.code, .integer(Int64(code)))
        f.add(.codeName, codeName.json)
        f.add(.address, address.json)
        f.add(.senderPid, senderPid.json)
        return f.object
    }
}

extension CrashReport.Exception {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.type, type.json)
        f.add(.mangledType, mangledType.json)
        f.add(.what, what.json)
        return f.object
    }
}

extension CrashReport.CrashedThread {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.id, id.json)
        f.add(.name, name.json)
        f.add(.architecture, architecture.json)
        f.add(.registers, registers.json)
        f.add(.frames, .array(frames.map(\.json)))
        f.add(.framesElided, framesElided.map { .integer(Int64($0)) })
        f.add(.asyncFrames, asyncFrames.map { .array($0.map(\.json)) })
        return f.object
    }
}

extension CrashReport.Frame {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.index, .integer(Int64(index)))
        f.add(.address, address.json)
        f.add(.trust, trust.json)
        f.add(.module, module.json)
        f.add(.moduleOffset, moduleOffset.json)
        f.add(.function, function.json)
        f.add(.mangledFunction, mangledFunction.json)
        f.add(.functionOffset, functionOffset.json)
        f.add(.file, file.json)
        f.add(.line, line.json)
        f.add(.column, column.json)
        f.add(.inlined, inlined.json)
        return f.object
    }
}

extension CrashReport.Thread {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.id, .unsigned(id))
        f.add(.name, name.json)
        f.add(.crashed, .bool(crashed))
        f.add(.context, context.json)
        f.add(.frames, frames.map { .array($0.map(\.json)) })
        return f.object
    }
}

extension CrashReport.Module {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.path, path.json)
        f.add(.buildId, buildId.json)
        f.add(.base, base.json)
        f.add(.start, start.json)
        f.add(.end, end.json)
        f.add(.symbols, symbols.json)
        f.add(.symbolsSource, symbolsSource.json)
        return f.object
    }
}

extension CrashReport.OperatingSystem {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.name, name.json)
        f.add(.id, id.json)
        f.add(.version, version.json)
        f.add(.kernel, kernel.json)
        return f.object
    }
}

extension CrashReport.App {
    var json: ReportJSON.Value {
        var f = Fields<CodingKeys>()
        f.add(.release, release.json)
        return f.object
    }
}
