import Foundation

/// `c-bridge-global:` — how `di-lint fix` gives the C functions of an implementation file a bridge
/// when none is in reach: one file-scope `static` variable per file, read in the fallback form
/// (`g_bridge ? g_bridge.svc : <original>`), and one setter the composition root calls.
///
/// ```yaml
/// c-bridge-global:
///   name: g_bridge                # the variable; it also counts as a bridge name for lint
///   c-type: "const struct crash_bridge *"  # its type in C files (none: C files are left alone);
///                                 # Objective-C files use `<bridge-type> *`
///   setter: "{file}_setBridge"    # {file}: the file's name without extension, as an identifier
/// ```
public struct CBridgeGlobal: Sendable, Equatable {
    public var name: String
    /// The variable's type in C files as written before its name (`const struct crash_bridge *`);
    /// nil: C files are left for manual work. Objective-C files use `<bridge-type> *`.
    public var type: String?
    public var setter: String
    /// Written by no config (the default global of the bridge style): plain C files take the type
    /// the container's C accessor is declared to return in the run (`CBridgeCType`).
    public var infersCType = false

    static let key = "c-bridge-global"

    static func parse(_ value: Any) throws -> CBridgeGlobal {
        func bad(_ why: String) -> ConfigError { ConfigError.invalid("\(key): \(why)") }
        var map: [String: Any]
        if let name = value as? String {
            map = ["name": name]
        } else {
            guard let m = value as? [String: Any] else {
                throw bad("must be a variable name or a mapping with name, c-type, setter")
            }
            map = m
        }
        if let unknown = Set(map.keys).subtracting(["name", "c-type", "setter"]).sorted().first {
            throw bad("unknown key '\(unknown)'")
        }
        guard let name = map["name"] as? String, name.isIdentifier else {
            throw bad("name must be a C identifier such as g_bridge")
        }
        var global = CBridgeGlobal(name: name, type: nil, setter: "{file}_setBridge")
        if let t = map["c-type"] {
            guard let type = t as? String, !type.trimmingCharacters(in: .whitespaces).isEmpty,
                !type.contains(";"), !type.contains("{"), !type.contains("\n")
            else { throw bad("c-type must be a C type such as 'CrashBridge *'") }
            global.type = type.trimmingCharacters(in: .whitespaces)
        }
        if let s = map["setter"] {
            guard let setter = s as? String, setter.replacingOccurrences(of: "{file}", with: "f").isIdentifier else {
                throw bad("setter must be a function name, {file} standing for the file's name")
            }
            global.setter = setter
        }
        return global
    }

    /// The setter's name in the file at `path`.
    func setterName(for path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var word = String(
            stem.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "_" })
        if word.first?.isNumber == true { word = "_" + word }
        return setter.replacingOccurrences(of: "{file}", with: word)
    }

    /// The type in a file of this extension, nil when the file cannot hold the global: a header
    /// (each includer would get its own variable, and the setter would be defined twice),
    /// Objective-C++/C++ (the setter's linkage would not match a C declaration), or a C file with no type set.
    func type(forExtension ext: String, bridgeType: String) -> String? {
        switch ext {
        case "m": return "\(bridgeType) *"
        case "c": return type
        default: return nil
        }
    }
}

extension Configuration {
    /// The top-level keys only `di-lint fix` reads.
    static let fixKeys: Set<String> = [
        CBridgeGlobal.key, "swift-callers-in-run", InjectionPolicy.key, "bridge-file", "lifecycle",
    ]

    /// Reads the keys `di-lint fix` adds on its own (kept apart from the others' parse).
    static func parseFixKeys(_ root: [String: Any], into config: inout Configuration) throws {
        if let value = root["swift-callers-in-run"] {
            guard let flag = value as? Bool else {
                throw ConfigError.invalid("swift-callers-in-run must be true or false")
            }
            config.swiftCallersInRun = flag
        }
        if let value = root["bridge-file"] {
            guard let path = value as? String, !path.isEmpty, !path.hasSuffix("/") else {
                throw ConfigError.invalid("bridge-file must be a file path such as Sources/App/CrashBridge.swift")
            }
            config.bridgeFile = path
        }
        if let value = root["lifecycle"] {
            guard let names = value as? [String], names.allSatisfy(\.isIdentifier) else {
                throw ConfigError.invalid("lifecycle must be a list of method names such as [install, start]")
            }
            config.lifecycle = names
        }
        if let value = root[InjectionPolicy.key] {
            config.injection = try InjectionPolicy.parse(value)
        }
        if let value = root[CBridgeGlobal.key] {
            let global = try CBridgeGlobal.parse(value)
            config.cBridgeGlobal = global
            if !config.bridgeNames.contains(global.name) { config.bridgeNames.append(global.name) }
        } else if config.bridgeTypeIsConfigured, let bridge = config.bridgeNames.first {
            // the bridge style with no key: C functions of Objective-C files get `g_<bridge>`
            // (`<bridge-type> *`), set by `{file}_setBridge`; plain C files the type the
            // container's C accessor returns, when the run declares it (`CBridgeCType`)
            var global = CBridgeGlobal(name: "g_" + bridge, type: nil, setter: "{file}_setBridge")
            global.infersCType = true
            config.cBridgeGlobal = global
            if !config.bridgeNames.contains(global.name) { config.bridgeNames.append(global.name) }
        }
    }
}

/// Where a file stands with its bridge global.
enum CBridgeGlobalState {
    /// Declared at file scope, as a `static`, starting at this offset: functions after it read it.
    case declared(at: Int)
    /// Neither the variable's nor the setter's name appears in the file: both can be added.
    case absent
    /// The name is used otherwise (a local, a later declaration) or the setter exists: left alone.
    case conflict
}

extension FixTokens {
    func bridgeGlobalState(_ global: CBridgeGlobal, setter: String) -> CBridgeGlobalState {
        // a text naming neither has no token naming them: absent, without reading every token
        let named = file.buffer.bytes.withUnsafeBytes { $0.containsASCII(global.name) || $0.containsASCII(setter) }
        if !named { return .absent }
        var depth = 0, statementStart = 0, seen = false
        for i in 0..<count {
            let w = text(i)
            if w == "{" {
                depth += 1
            } else if w == "}" {
                depth -= 1; if depth == 0 { statementStart = i + 1 }
            } else if w == ";" && depth == 0 {
                statementStart = i + 1
            }
            if w == setter { return .conflict }
            guard w == global.name, isIdentifier(i) else { continue }
            if !seen, depth == 0, (statementStart..<i).contains(where: { text($0) == "static" }) {
                return .declared(at: start(i))
            }
            seen = true
        }
        return seen ? .conflict : .absent
    }
}

/// The declarations the bridge global brings: the variable and the setter in the file, and the
/// setter's prototype in the header of the same name when the run has one (else in the file).
struct CBridgeGlobalDeclarations {
    let context: FixContext
    let global: CBridgeGlobal

    func edits(in analysis: FixFileAnalysis, firstFunction: Int) -> [TextEdit]? {
        let path = analysis.path
        let ext = (path as NSString).pathExtension
        guard let type = context.cBridgeGlobalType(forExtension: ext) else { return nil }
        let objc = ext == "m"
        let tokens = analysis.tokens
        let eol = tokens.lineEnding
        let setter = global.setterName(for: path)
        let parameter =
            global.name == context.bridgeName ? "new\(context.bridgeName.capitalizedFirst)" : context.bridgeName
        let typed = { (name: String) in type.hasSuffix("*") ? type + name : type + " " + name }
        let parameterType = objc && type.hasSuffix("*") ? typed("_Nullable " + parameter) : typed(parameter)
        let prototype = "void \(setter)(\(parameterType));"

        var edits: [TextEdit] = []
        var header = false
        let stem = (path as NSString).deletingPathExtension
        if let headerPath = context.runFiles.first(where: {
            ($0 as NSString).deletingPathExtension == stem && ($0 as NSString).pathExtension == "h"
        }),
            let headerFile = context.analysis(headerPath),
            FixFileAnalysis.FileKey(path: headerPath).map(analysis.includes) == true,
            let at = headerFile.tokens.afterLastInclude(before: headerFile.tokens.count)
        {
            let heol = headerFile.tokens.lineEnding
            let forward =
                objc
                ? "@class \(context.configuration.bridgeType);\(heol)"
                : CBridgeCType.forward(type).map { $0 + heol } ?? ""
            let lines =
                "/// Sets the bridge the C functions of \((path as NSString).lastPathComponent) read (the composition root calls it).\(heol)\(prototype)\(heol)"
            let text =
                objc ? "\(heol)#ifdef __OBJC__\(heol)\(forward)\(lines)#endif\(heol)" : "\(heol)\(forward)\(lines)"
            edits.append(TextEdit(path: headerPath, range: at..<at, replacement: text))
            header = true
        }
        // after the includes (a blank line above), else above the first function (a blank line below)
        let afterIncludes = tokens.afterLastInclude(before: firstFunction)
        let at = afterIncludes ?? tokens.lineStart(above: firstFunction)
        var text = afterIncludes != nil ? eol : ""
        if objc { text += "@class \(context.configuration.bridgeType);\(eol)\(eol)" }
        text += "/// The bridge this file's C functions read; set with \(setter)().\(eol)"
        text += "static \(typed(global.name));\(eol)\(eol)"
        if !header { text += "\(prototype)\(eol)" }
        text += "void \(setter)(\(parameterType)) {\(eol)    \(global.name) = \(parameter);\(eol)}\(eol)"
        if afterIncludes == nil { text += eol }
        edits.append(TextEdit(path: path, range: at..<at, replacement: text, order: 2))
        return edits
    }
}
