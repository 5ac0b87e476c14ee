/// Install, uninstall and set-bridge events in a C-family function body, on the token stream.
///
/// Installs: `[x install]`, `[x install:…]`, `x.install()`, `x->install()`, C functions whose name
/// ends in `_install` (object first). Bridge sets, for every configured bridge name: `x.bridge = b`,
/// `x->bridge = b`, `[x setBridge:b]`, C setters whose name ends in `_set_bridge` (object first).
enum ClangLifecycleEvents {
    /// The assignments that set a bridge member (`x.bridge = b`, `x->bridge = b`), by where the
    /// member's name is.
    static func bridgeSets(_ assignments: [Assignment], configuration: Configuration) -> [Int: Assignment] {
        let names = Set(configuration.bridgeNames)
        return Dictionary(assignments.filter { $0.isMember && $0.base != nil && $0.name.map(names.contains) == true }
            .map { ($0.nameOffset, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Installs, uninstalls and bridge sets in a token range, with their receivers.
    static func events(_ t: TokenCursor, in range: Range<Int>, bridgeSets: [Int: Assignment],
                       configuration: Configuration) -> [LifecycleEvent] {
        let bridgeNames = configuration.bridgeNames
        let setters = configuration.bridgeSetterNames
        var result: [LifecycleEvent] = []
        func add(_ receiver: String, _ kind: LifecycleEvent.Kind, at offset: Int) {
            result.append(LifecycleEvent(receiver: receiver, kind: kind, offset: t.offset(offset)))
        }
        for i in range where t.isIdentifier(i) {
            let word = t.text(i)
            let lifecycle: LifecycleEvent.Kind? = word == "install" ? .install : word == "uninstall" ? .uninstall : nil
            // [receiver install], [receiver setBridge:b]
            if t.spells(i + 1, "]") || t.spells(i + 1, ":"), let open = messageOpen(t, selectorAt: i, range: range) {
                let receiver = t.joined(open + 1, i)
                if let lifecycle, !receiver.isEmpty { add(receiver, lifecycle, at: i) }
                if setters.contains(word), t.spells(i + 1, ":"), !receiver.isEmpty { add(receiver, .bridgeSet, at: open) }
                continue
            }
            // receiver.install(), receiver->install()
            if let lifecycle, t.spells(i + 1, "("), t.spells(i - 1, ".") || t.spells(i - 1, "->"),
               let start = t.expressionStart(endingAt: i - 2) {
                add(t.joined(start, i - 1), lifecycle, at: i)
                continue
            }
            // receiver.bridge = b, receiver->bridge = b
            if let set = bridgeSets[t.offset(i)], let receiver = set.base {
                result.append(LifecycleEvent(receiver: receiver, kind: .bridgeSet, offset: set.offset))
                continue
            }
            // C: reporter_install(r, ...), reporter_uninstall(r), reporter_set_bridge(r, b)
            guard t.spells(i + 1, "("), !(t.spells(i - 1, ".") || t.spells(i - 1, "->")),
                  let first = t.arguments(from: i + 1).first, !first.isEmpty else { continue }
            let receiver = t.joined(first.lowerBound, first.upperBound)
            if word.hasSuffix("_uninstall") {
                add(receiver, .uninstall, at: i)
            } else if word.hasSuffix("_install") {
                add(receiver, .install, at: i)
            } else if bridgeNames.contains(where: { word.hasSuffix("_set_" + $0) }) {
                add(receiver, .bridgeSet, at: i)
            }
        }
        return result
    }

    /// The `[` of the message whose selector (first part) is the token at `i`.
    private static func messageOpen(_ t: TokenCursor, selectorAt i: Int, range: Range<Int>) -> Int? {
        guard i > range.lowerBound, let start = t.expressionStart(endingAt: i - 1), t.spells(start - 1, "["),
              t.isMessageStart(start - 1) else { return nil }
        return start - 1
    }
}
