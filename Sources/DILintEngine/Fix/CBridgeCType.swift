import Foundation

/// The bridge global's type in a plain C file when the config has only `containers:` and
/// `bridge-type:`. A C file cannot hold the Objective-C or Swift bridge, so it holds what its reads
/// need in C: a pointer of the type the container's one C accessor is declared to return in the run
/// (`const struct app_services *app_container(void);` gives `static const struct app_services
/// *g_bridge;`). `app_container()->report(code)` then reads `g_bridge->report(code)`, the same
/// member of the same C type, and the composition root hands the table over with the file's
/// setter (`reporter_setBridge(app_container())`, the root's one read). No C accessor among the
/// containers, several, or one the run declares with no single pointer type: no type, and the C
/// reads stay manual items.
enum CBridgeCType {
    /// `const <base> *` for the pointer type the one C accessor container returns, else nil.
    static func inferred(containers: [ContainerSpec], texts: (String) -> [String]) -> String? {
        let names = accessors(containers)
        guard names.count == 1,
            let type = CServiceInjection.declaredType(of: names[0], accessor: true, in: texts(names[0])),
            type.pointers == 1
        else { return nil }
        return "const \(type.base) *"
    }

    /// `struct T;` for a type naming a struct tag (a header declaring the setter need not define it).
    static func forward(_ type: String) -> String? {
        let words = CServiceInjection.normalized(type.replacingOccurrences(of: "*", with: " ")).split(separator: " ")
        guard words.count == 2, words[0] == "struct", String(words[1]).isIdentifier else { return nil }
        return "struct \(words[1]);"
    }

    /// The C accessor containers' names (`app_container` for `app_container()`).
    static func accessors(_ containers: [ContainerSpec]) -> [String] {
        containers.compactMap { if case let .function(name) = $0 { return name } else { return nil } }
    }
}

extension FixContext {
    /// The bridge global's type in a file of this extension: the config's (`c-type:`, `<bridge-type> *`
    /// in Objective-C), or, for the default global in a plain C file, `CBridgeCType.inferred`.
    func cBridgeGlobalType(forExtension ext: String) -> String? {
        guard let global = configuration.cBridgeGlobal else { return nil }
        if let type = global.type(forExtension: ext, bridgeType: configuration.bridgeType) { return type }
        guard ext == "c", global.infersCType else { return nil }
        return CBridgeCType.inferred(containers: configuration.containers) { name in
            runFiles.filter { ["c", "h"].contains(($0 as NSString).pathExtension) }.compactMap { path in
                guard let bytes = workspace.bytes(path), bytes.withUnsafeBytes({ $0.containsASCII(name) }) else {
                    return nil
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
}

extension CompositionWiring {
    /// What the root passes to the setter of a plain C file whose global has the inferred C type:
    /// the container's C table, read there once (`app_container()`); nil for every other setter
    /// (the bridge itself is passed).
    func cTable(_ setterPath: String) -> String? {
        guard (setterPath as NSString).pathExtension == "c", let global = context.configuration.cBridgeGlobal,
            global.infersCType, global.type == nil, context.cBridgeGlobalType(forExtension: "c") != nil
        else { return nil }
        let accessors = CBridgeCType.accessors(context.configuration.containers)
        return accessors.count == 1 ? accessors[0] + "()" : nil
    }
}
