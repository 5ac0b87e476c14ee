import Foundation

/// The composition root when the config names none (`composition-root:` without types,
/// functions or paths): a type that builds a migrated type and that the run itself builds nowhere
/// is the top of the build graph, so it owns the bridge. A type the run builds (in a Swift call
/// `T(…)`/`T.init(…)` or an Objective-C `[T alloc]`/`[T new]`) is not inferred: its builder is a
/// better place, and fix says which key to write rather than guess.
extension FixContext {
    /// Whether the config leaves the composition root to inference.
    var infersCompositionRoot: Bool {
        let root = configuration.compositionRoot
        return root.types.isEmpty && root.functions.isEmpty && root.paths.isEmpty
    }

    /// Whether `type` may own the bridge: named by `composition-root: types:`, or, with no
    /// composition root configured, built nowhere in the run.
    func isCompositionRoot(type: String) -> Bool {
        if configuration.isCompositionRootType(type) { return true }
        return infersCompositionRoot && fileBuilding(type) == nil
    }

    /// Whether `type`, declared in `path`, may build and own a bridge: a composition-root type
    /// (`isCompositionRoot`) or a type in a `composition-root: paths:` file.
    func mayOwnBridge(type: String, declaredIn path: String) -> Bool {
        isCompositionRoot(type: type) || configuration.isCompositionRootPath(display(path))
    }

    /// Why `type` may not own the bridge, for a manual item: what to configure.
    func notCompositionRoot(_ type: String) -> String {
        guard infersCompositionRoot, let path = fileBuilding(type) else {
            return "it is not in composition-root:"
        }
        return
            "the run builds \(type) in \(display(path)), so it is not the top of the build graph: name the type that owns the \(bridgeName) under composition-root: types:"
    }

    /// The first file of the run (sorted) that builds `type`, or nil.
    func fileBuilding(_ type: String) -> String? {
        guard type.isIdentifier else { return nil }
        let name = NSRegularExpression.escapedPattern(for: type)
        let swift = try? NSRegularExpression(pattern: "(?<![\\w.])\(name)(\\.init)?\\s*\\(")
        let objc = try? NSRegularExpression(pattern: "\\[\\s*\(name)\\s+(alloc|new)\\b")
        for path in runFiles.sorted() {
            let ext = (path as NSString).pathExtension
            let pattern: NSRegularExpression?
            switch ext {
            case "swift": pattern = swift
            case "m", "mm", "h": pattern = objc
            default: continue
            }
            guard let pattern, let bytes = workspace.bytes(path),
                bytes.withUnsafeBytes({ $0.containsASCII(type) })
            else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { return path }
        }
        return nil
    }
}
