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
        return Dictionary(
            assignments.filter { $0.isMember && $0.base != nil && $0.name.map(names.contains) == true }
                .map { ($0.nameOffset, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The names `events` looks for, worked out once per file.
    struct Names {
        let bridgeNames: [String]
        let setters: Set<String>
        /// `_set_<bridge>`, `_install`, `_uninstall`: suffixes of C functions that are events.
        let setterSuffixes: [String]
        /// Lengths of the identifiers an event's word can have without a suffix (install,
        /// uninstall, a setter): only those are read as strings.
        let wordLengths: Set<Int>

        init(configuration: Configuration) {
            bridgeNames = configuration.bridgeNames
            setters = configuration.bridgeSetterNames
            setterSuffixes = bridgeNames.map { "_set_" + $0 }
            wordLengths = Set((["install", "uninstall"] + Array(setters)).map(\.utf8.count))
        }
    }

    /// Installs, uninstalls and bridge sets in a token range, with their receivers.
    static func events(_ t: TokenCursor, in range: Range<Int>, bridgeSets: [Int: Assignment], names: Names)
        -> [LifecycleEvent]
    {
        var result: [LifecycleEvent] = []
        func add(_ receiver: String, _ kind: LifecycleEvent.Kind, at offset: Int) {
            result.append(LifecycleEvent(receiver: receiver, kind: kind, offset: t.offset(offset)))
        }
        let buffer = t.file.buffer
        for i in range where t.isIdentifier(i) {
            let bytes = t.file.tokens[i].range
            func ends(with suffix: String) -> Bool {
                let n = suffix.utf8.count
                return bytes.count >= n && buffer.spells(bytes.upperBound - n..<bytes.upperBound, suffix)
            }
            // the word as a string only when it can be an event's (a large file has a million identifiers)
            let word = names.wordLengths.contains(bytes.count) ? t.text(i) : ""
            let lifecycle: LifecycleEvent.Kind? = word == "install" ? .install : word == "uninstall" ? .uninstall : nil
            // [receiver install], [receiver setBridge:b]
            if t.spells(i + 1, "]") || t.spells(i + 1, ":"), let open = messageOpen(t, selectorAt: i, range: range) {
                let receiver = t.joined(open + 1, i)
                if let lifecycle, !receiver.isEmpty { add(receiver, lifecycle, at: i) }
                if names.setters.contains(word), t.spells(i + 1, ":"), !receiver.isEmpty {
                    add(receiver, .bridgeSet, at: open)
                }
                continue
            }
            // receiver.install(), receiver->install()
            if let lifecycle, t.spells(i + 1, "("), t.spells(i - 1, ".") || t.spells(i - 1, "->"),
                let start = t.expressionStart(endingAt: i - 2)
            {
                add(t.joined(start, i - 1), lifecycle, at: i)
                continue
            }
            // receiver.bridge = b, receiver->bridge = b
            if !bridgeSets.isEmpty, let set = bridgeSets[t.offset(i)], let receiver = set.base {
                result.append(LifecycleEvent(receiver: receiver, kind: .bridgeSet, offset: set.offset))
                continue
            }
            // C: reporter_install(r, ...), reporter_uninstall(r), reporter_set_bridge(r, b)
            let kind: LifecycleEvent.Kind? =
                ends(with: "_uninstall")
                ? .uninstall
                : ends(with: "_install")
                    ? .install
                    : names.setterSuffixes.contains(where: ends) ? .bridgeSet : nil
            guard let kind, t.spells(i + 1, "("), !(t.spells(i - 1, ".") || t.spells(i - 1, "->")),
                let first = t.arguments(from: i + 1).first, !first.isEmpty
            else { continue }
            add(t.joined(first.lowerBound, first.upperBound), kind, at: i)
        }
        return result
    }

    /// The `[` of the message whose selector (first part) is the token at `i`.
    private static func messageOpen(_ t: TokenCursor, selectorAt i: Int, range: Range<Int>) -> Int? {
        guard i > range.lowerBound, let start = t.expressionStart(endingAt: i - 1), t.spells(start - 1, "["),
            t.isMessageStart(start - 1)
        else { return nil }
        return start - 1
    }
}
