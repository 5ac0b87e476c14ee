/// `bridge-injected-after-install`: the bridge is set on an object after `install` was called on
/// it in the same function, so install ran without it (and fell back to the container).
struct BridgeInjectedAfterInstallRule: FileRule {
    let id = "bridge-injected-after-install"

    /// What happens to a receiver, in token order.
    enum Event {
        case install, uninstall
        /// The bridge is set; `at` is where the setting expression starts.
        case bridgeSet(at: Int)
    }

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        let tokens = TokenView(file: context.file)
        var findings: [Finding] = []
        for scope in context.file.codeScopes() {
            var installedAt: [String: Int] = [:]
            for (receiver, event, index) in events(tokens, in: tokens.indices(in: scope.range), bridgeNames: context.configuration.bridgeNames) {
                switch event {
                case .install:
                    if installedAt[receiver] == nil { installedAt[receiver] = index }
                case .uninstall:
                    installedAt[receiver] = nil
                case let .bridgeSet(at):
                    guard let install = installedAt[receiver] else { continue }
                    let line = context.file.buffer.lineColumn(of: tokens.offset(install)).line
                    findings.append(context.finding(
                        rule: id, offset: tokens.offset(at), severity: severity,
                        message: "bridge set on '\(receiver)' after its install (line \(line)): install already ran without the bridge; inject it before calling install"))
                }
            }
        }
        return findings
    }

    /// Installs, uninstalls and bridge sets in a token range, with their receivers.
    func events(_ t: TokenView, in range: Range<Int>, bridgeNames: [String]) -> [(String, Event, Int)] {
        let names = Set(bridgeNames)
        let setters = Set(bridgeNames.map { "set" + $0.capitalizedFirst })
        var result: [(String, Event, Int)] = []
        for i in range where t.isIdentifier(i) {
            let word = t.text(i)
            let lifecycle: Event? = word == "install" ? .install : word == "uninstall" ? .uninstall : nil
            // [receiver install], [receiver setBridge:b]
            if t.spells(i + 1, "]") || t.spells(i + 1, ":"), let open = messageOpen(t, selectorAt: i, range: range) {
                let receiver = t.joined(open + 1, i)
                if let lifecycle, !receiver.isEmpty { result.append((receiver, lifecycle, i)) }
                if setters.contains(word), t.spells(i + 1, ":"), !receiver.isEmpty { result.append((receiver, .bridgeSet(at: open), i)) }
                continue
            }
            // receiver.install(), receiver->install()
            if let lifecycle, t.spells(i + 1, "("), t.spells(i - 1, ".") || t.spells(i - 1, "->"),
               let start = t.expressionStart(endingAt: i - 2) {
                result.append((t.joined(start, i - 1), lifecycle, i))
                continue
            }
            // receiver.bridge = b, receiver->bridge = b
            if names.contains(word), t.spells(i + 1, "="), t.spells(i - 1, ".") || t.spells(i - 1, "->"),
               let start = t.expressionStart(endingAt: i - 2) {
                result.append((t.joined(start, i - 1), .bridgeSet(at: start), i))
                continue
            }
            // C: reporter_install(r, ...), reporter_uninstall(r), reporter_set_bridge(r, b)
            guard t.spells(i + 1, "("), !(t.spells(i - 1, ".") || t.spells(i - 1, "->")),
                  let first = t.arguments(from: i + 1).first, !first.isEmpty else { continue }
            let receiver = t.joined(first.lowerBound, first.upperBound)
            if word.hasSuffix("_uninstall") {
                result.append((receiver, .uninstall, i))
            } else if word.hasSuffix("_install") {
                result.append((receiver, .install, i))
            } else if bridgeNames.contains(where: { word.hasSuffix("_set_" + $0) }) {
                result.append((receiver, .bridgeSet(at: i), i))
            }
        }
        return result
    }

    /// The `[` of the message whose selector (first part) is the token at `i`.
    private func messageOpen(_ t: TokenView, selectorAt i: Int, range: Range<Int>) -> Int? {
        guard i > range.lowerBound, let start = t.expressionStart(endingAt: i - 1), t.spells(start - 1, "["),
              t.isMessageStart(start - 1) else { return nil }
        return start - 1
    }
}
