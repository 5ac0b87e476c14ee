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

/// Object fields, leaving out nil optionals as `encodeIfPresent` does.
private struct Fields {
    var items: [(String, ReportJSON.Value)] = []
    mutating func add(_ key: String, _ value: ReportJSON.Value?) { if let value { items.append((key, value)) } }
    var object: ReportJSON.Value { .object(items) }
}

private extension String { var json: ReportJSON.Value { .string(self) } }
private extension Optional where Wrapped == String { var json: ReportJSON.Value? { map { .string($0) } } }
private extension Optional where Wrapped == UInt64 { var json: ReportJSON.Value? { map { .unsigned($0) } } }
private extension Dictionary where Key == String, Value == String {
    var json: ReportJSON.Value { .object(map { ($0.key, .string($0.value)) }) }
}

extension CrashReport {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("schema_version", .integer(Int64(schemaVersion)))
        f.add("dump_file", dumpFile.json)
        f.add("dump_format_version", .unsigned(UInt64(dumpFormatVersion)))
        f.add("incomplete", .bool(incomplete))
        f.add("incomplete_reasons", .array(incompleteReasons.map(\.json)))
        f.add("crash_time", crashTime.json)
        f.add("handler_duration_ns", handlerDurationNs.json)
        f.add("process", process.json)
        f.add("signal", signal?.json)
        f.add("exception", exception?.json)
        f.add("fatal_error_message", fatalErrorMessage.json)
        f.add("terminate_message", terminateMessage.json)
        f.add("crashed_thread", crashedThread?.json)
        f.add("threads", .array(threads.map(\.json)))
        f.add("modules", .array(modules.map(\.json)))
        f.add("system", system.json)
        f.add("annotations", annotations.json)
        return f.object
    }
}

extension CrashReport.Process {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("pid", pid.json)
        f.add("parent_pid", parentPid.json)
        f.add("executable", executable.json)
        f.add("install_time", installTime.json)
        return f.object
    }
}

extension CrashReport.Signal {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("number", .integer(Int64(number)))
        f.add("name", name.json)
        f.add("code", .integer(Int64(code)))
        f.add("code_name", codeName.json)
        f.add("address", address.json)
        f.add("sender_pid", senderPid.json)
        return f.object
    }
}

extension CrashReport.Exception {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("type", type.json)
        f.add("mangled_type", mangledType.json)
        f.add("what", what.json)
        return f.object
    }
}

extension CrashReport.CrashedThread {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("id", id.json)
        f.add("name", name.json)
        f.add("architecture", architecture.json)
        f.add("registers", registers.json)
        f.add("frames", .array(frames.map(\.json)))
        f.add("frames_elided", framesElided.map { .integer(Int64($0)) })
        f.add("async_frames", asyncFrames.map { .array($0.map(\.json)) })
        return f.object
    }
}

extension CrashReport.Frame {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("index", .integer(Int64(index)))
        f.add("address", address.json)
        f.add("trust", trust.json)
        f.add("module", module.json)
        f.add("module_offset", moduleOffset.json)
        f.add("function", function.json)
        f.add("mangled_function", mangledFunction.json)
        f.add("function_offset", functionOffset.json)
        return f.object
    }
}

extension CrashReport.Thread {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("id", .unsigned(id))
        f.add("name", name.json)
        f.add("crashed", .bool(crashed))
        f.add("context", context.json)
        f.add("frames", frames.map { .array($0.map(\.json)) })
        return f.object
    }
}

extension CrashReport.Module {
    var json: ReportJSON.Value {
        var f = Fields()
        f.add("path", path.json)
        f.add("build_id", buildId.json)
        f.add("base", base.json)
        f.add("start", start.json)
        f.add("end", end.json)
        f.add("symbols", symbols.json)
        return f.object
    }
}
