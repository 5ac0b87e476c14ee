import Foundation

/// The Objective-C senders in the run of a Swift initializer that gains the service's parameter
/// (an initializer visible to Objective-C: `@objc`, `@objcMembers`, or an `NSObject` subclass's
/// whose selector an Objective-C file calls). Objective-C sees no default argument, and the
/// selector Swift generates changes (`init(name:)` → `initWithName:`, then `init(name:tabs:)` →
/// `initWithName:tabs:`): each `[[T alloc] initWithName:n]` gets ` tabs:<what it has in reach>`
/// (a parameter of the service's class, its class's property of that name and class). Refused,
/// with the reason, when the service's type is not a class Objective-C sees, when the parameter
/// does not go last, when a sender is not `[[T alloc] …]` (a subclass's `[super …]`, a class
/// object in a variable), or when a sender has nothing of the type in reach.
struct SwiftObjCInitCallers {
    let context: FixContext

    /// What a note of an updated sender begins with (the group is `unsafe`: the value a sender
    /// holds may be another object than the container's).
    static let notePrefix = "Objective-C sender"

    /// Why the senders cannot be updated.
    struct Refusal: Error { var why: String }

    /// The edits of every sender of `selector` to `typeName`, and a note per sender; or why not.
    /// `labels`: the initializer's argument labels before the change; `name`: the new last one.
    func senders(
        typeName: String, labels: [String], name: String, serviceType: String, last: Bool
    ) -> Result<(edits: [TextEdit], notes: [String]), Refusal> {
        let oldSelector = Self.selector(labels)
        guard last, !labels.contains("_") else {
            return .failure(
                Refusal(why: "'\(oldSelector)' is sent from Objective-C and the new parameter would not go last"))
        }
        guard serviceType.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), isObjectiveCClass(serviceType)
        else {
            return .failure(
                Refusal(
                    why:
                        "'\(oldSelector)' is sent from Objective-C and '\(serviceType)' is not a class Objective-C sees (the selector would change)"
                ))
        }
        let types = ObjCServiceTypes(context: context)
        let constructions = ObjCConstructions(context: context, types: types)
        let (sites, _) = constructions.sites(of: typeName)
        let matching = sites.filter { $0.selector == oldSelector }
        // every send of the selector's first part in the run's Objective-C files is one of those
        let first = oldSelector.prefix { $0 != ":" } + ":"
        for path in context.runFiles where ["m", "mm"].contains((path as NSString).pathExtension) {
            guard let bytes = context.workspace.bytes(path) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let sends = text.components(separatedBy: first).count - 1
            let found = matching.filter { $0.analysis.path == path }.count
            if sends > found {
                return .failure(
                    Refusal(
                        why:
                            "'\(oldSelector)' is sent in \(context.display(path)) other than as [[\(typeName) alloc] \(oldSelector)…] (the selector would change)"
                    ))
            }
        }
        let type = ObjCServiceTypes.Declared(base: serviceType, pointer: true)
        var edits: [TextEdit] = [], notes: [String] = []
        let newSelector = oldSelector + name + ":"
        for site in matching {
            let tokens = site.analysis.tokens
            let (line, column) = site.analysis.lineColumn(tokens.start(site.open))
            let place = "\(context.display(site.analysis.path)):\(line):\(column)"
            guard let value = constructions.inReach(type, named: name, at: site.open, in: site.analysis) else {
                return .failure(
                    Refusal(
                        why:
                            "'\(oldSelector)' is sent at \(place), where nothing of type \(serviceType) is in reach (the selector would change)"
                    ))
            }
            let at = tokens.end(site.close - 1)
            edits.append(TextEdit(path: site.analysis.path, range: at..<at, replacement: " \(name):\(value)"))
            notes.append("\(place): note: \(Self.notePrefix) passes \(value) to -\(newSelector)")
        }
        return .success((edits, notes))
    }

    /// The selector Swift gives an initializer with these argument labels.
    static func selector(_ labels: [String]) -> String {
        guard let first = labels.first else { return "init" }
        return "initWith" + first.prefix(1).uppercased() + first.dropFirst() + ":"
            + labels.dropFirst().map { $0 + ":" }.joined()
    }

    /// An `@interface T` in reach, or a Swift `class T` that is `@objc` or inherits (directly) from `NSObject`.
    private func isObjectiveCClass(_ name: String) -> Bool {
        let types = ObjCServiceTypes(context: context)
        if !types.interfaceTexts(of: name).isEmpty { return true }
        let escaped = NSRegularExpression.escapedPattern(for: name)
        let patterns = [
            #"@objc(?:Members)?\b[^\n{]*\bclass\s+"# + escaped + #"\b"#,
            #"\bclass\s+"# + escaped + #"\s*:\s*NSObject\b"#,
        ]
        return context.swiftFilesMentioning(name).contains { path in
            guard let bytes = context.workspace.bytes(path) else { return false }
            let text = String(decoding: bytes, as: UTF8.self)
            return patterns.contains { text.range(of: $0, options: .regularExpression) != nil }
        }
    }
}
