import Foundation

/// Which migration step `di-lint fix` performs.
public enum FixPhase: String, Codable, Sendable, CaseIterable {
    /// Direct access → the bridge with a fallback to the container.
    case inject
    /// The composition root wired: each migrated type is given the bridge where the run builds it
    /// (`CompositionWiring`).
    case wire
    /// Fallback → the bridge alone.
    case finish
    /// Writes the bridge facade the run's reads need (`BridgeWriter`).
    case bridge

    /// The phases that rewrite accesses, in the order a migration runs them (`bridge` writes
    /// only its own files, and `inject` runs it when the run has no bridge).
    public static var allCases: [FixPhase] { [.inject, .finish] }
}

/// One replacement of a byte range of a file (an insertion when the range is empty).
public struct TextEdit: Codable, Equatable, Hashable, Sendable {
    /// The file's real path (symlinks resolved), so a header reached by two names is edited once.
    public var path: String
    public var range: Range<Int>
    public var replacement: String
    /// Among insertions at the same offset, lower goes first (a `@class` line before a class extension).
    public var order: Int

    public init(path: String, range: Range<Int>, replacement: String, order: Int = 1) {
        self.path = path
        self.range = range
        self.replacement = replacement
        self.order = order
    }
}

/// Edits that succeed or fail together: a class's bridge property and every access it serves.
public struct FixGroup: Codable, Equatable, Sendable {
    /// `ObjC class Reporter`, `C function report_crash`, `finish SentryCrash.crashReporter`.
    public var title: String
    public var edits: [TextEdit]
    /// The accesses the group rewrites, as `path:line:col` with their expression.
    public var targets: [FixTarget]
    /// Why the group was dropped, when it was (verification, overlap, a file changed since planning).
    public var refused: String?
    /// `finish` of a Swift type: the calls of its initializer that relied on the bridge
    /// parameter's default and now pass the bridge (edits in this group).
    public var callers: [FixCaller] = []
    /// What a person should know of an accepted group's edits (a property made `lazy`, a
    /// declaration removed), as `path:line:col: note: …`.
    public var notes: [String]?
    /// `safe`: behaviour is kept (the transition form with a fallback); `unsafe`: it may change
    /// (a fallback removed, a read moved to a caller). `--apply` writes safe groups only unless
    /// `--unsafe` is given. Nil: safe (the bridge style's forms all keep behaviour).
    public var tier: FixTier?

    /// The group's tier (a group that names none is safe).
    public var safety: FixTier { tier ?? .safe }
    /// An `unsafe` group that passed every check but is not shown nor written: the run was not
    /// given `--unsafe` (see `FixPlan.withholdUnsafe`).
    public var withheld: Bool?
    /// The files the group creates (real paths; each edit of one inserts its whole text): they
    /// must not exist when it is written (`--phase bridge`).
    public var creates: [String]?
}

/// Whether a group's edits keep behaviour (ruff's fix safety).
public enum FixTier: String, Codable, Sendable {
    case safe
    case unsafe
}

/// A call of a Swift initializer that omitted `bridge:`, given the bridge by `finish` in the same
/// group as the removal of the parameter's default.
public struct FixCaller: Codable, Equatable, Sendable {
    public var path: String
    public var line: Int
    public var column: Int
    /// The called initializer, `T(…)`.
    public var call: String
    /// What the call now passes: the bridge in reach (`bridge`, `self.bridge`), or the default
    /// expression itself when the caller has no bridge (then the container read moves here).
    public var argument: String
    /// The caller had no bridge in reach: it builds the bridge from the container itself.
    public var explicitDefault: Bool
    /// The caller is in the container's own type: it builds the bridge from the container's services.
    var fromContainerServices = false
    /// The container reads the default expression holds (each a read the caller now makes).
    public var reads: Int
    /// Set by verification for an explicit default: how the moved reads classify in the caller,
    /// `composition-root` (the caller is in the configured composition root) or `direct` (a new
    /// `container-access` finding there, reported, not hidden).
    public var movedKinds: [String]?
    /// The edit that passes the bridge, and where in its replacement the argument starts.
    var edit: TextEdit
    var argumentOffset: Int

    /// `path:line:col`.
    var place: String { "\(path):\(line):\(column)" }
    /// Whether the moved reads landed outside the composition root (direct accesses now).
    public var movedOutsideRoot: Bool { explicitDefault && (movedKinds ?? []).contains(AccessKind.direct.rawValue) }

    private enum CodingKeys: String, CodingKey {
        case path, line, column, call, argument, explicitDefault, reads, movedKinds
    }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path); line = try c.decode(Int.self, forKey: .line)
        column = try c.decode(Int.self, forKey: .column); call = try c.decode(String.self, forKey: .call)
        argument = try c.decode(String.self, forKey: .argument);
        explicitDefault = try c.decode(Bool.self, forKey: .explicitDefault)
        reads = try c.decode(Int.self, forKey: .reads);
        movedKinds = try c.decodeIfPresent([String].self, forKey: .movedKinds)
        edit = TextEdit(path: path, range: 0..<0, replacement: ""); argumentOffset = 0
    }
    init(
        path: String, line: Int, column: Int, call: String, argument: String, explicitDefault: Bool, reads: Int,
        edit: TextEdit, argumentOffset: Int
    ) {
        self.path = path; self.line = line; self.column = column; self.call = call; self.argument = argument
        self.explicitDefault = explicitDefault; self.reads = reads; self.edit = edit;
        self.argumentOffset = argumentOffset
    }
}

/// An access a group rewrites, located in the file as planned.
public struct FixTarget: Codable, Equatable, Sendable {
    public var path: String
    public var line: Int
    public var column: Int
    public var expression: String
    /// The byte range of the rewritten expression in the planned file.
    public var range: Range<Int>
    /// Where the container access itself starts, when the rewrite starts elsewhere (a send's `[`,
    /// a fallback's condition): the place `lint` reports the access at.
    public var accessLine: Int?
    public var accessColumn: Int?
    /// The service style: what the access reads now (`self.dateProvider`, `wt->repo`); after the
    /// edit its range holds no container access at all.
    public var reads: String?

    /// `path:line:col` of the access, as `lint` reports it.
    var accessPlace: String { "\(path):\(accessLine ?? line):\(accessColumn ?? column)" }
}

/// An access left for a person, with why it was not rewritten.
public struct ManualItem: Codable, Equatable, Sendable {
    public var path: String
    public var line: Int
    public var column: Int
    public var expression: String
    public var reason: ManualReason
    /// Extra detail (the blocking accesses of a service, the enclosing method).
    public var detail: String?

    public init(path: String, line: Int, column: Int, expression: String, reason: ManualReason, detail: String? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.expression = expression
        self.reason = reason
        self.detail = detail
    }
}

/// Why an access was not rewritten.
public enum ManualReason: String, Codable, Sendable, CaseIterable, Error {
    case classMethod = "class method (no instance to hold the bridge)"
    case initializerOrDealloc = "init or dealloc (the bridge is not set yet, or any more)"
    case deallocMayLoseBridge =
        "a dealloc where the bridge may be gone (manual reference counting, the body clears the bridge, or a block that may outlive self)"
    case noBridgeInReach = "C function with no bridge in reach"
    case outsideFunction = "outside any function (static initializer or global)"
    case macro = "inside a macro definition or expansion"
    case suppressed = "under a di-lint suppression"
    case noService = "the container itself is used, not one of its services"
    case assignedTo = "the service is assigned to or its address taken"
    case unsupportedLanguage = "language or construct fix does not rewrite"
    case unrecognisedForm = "fallback form fix does not recognise"
    case blockedByDirectAccess = "service still has direct accesses"
    case nested = "nested in another access of the same expression"
    case blockAvoidingSelf = "in a block that holds self weakly (self.bridge would capture it)"
    case swiftInitializers = "the Swift type's initializers cannot take the bridge safely"
    case propertyInitialValue = "a property's initial value fix cannot move into the initializer"
    case typeNotInRun = "the Swift type is not declared exactly once (or once per #if clause) in the run"
    case callersRelyOnDefault = "callers still rely on the bridge parameter's default"
    case notParsed = "the file could not be parsed (its accesses are not planned)"
    case notWritable = "fix does not rewrite the file"
    case parameterDefault = "a parameter's default value (the service is injected on its own already)"
    case protocolInitializer =
        "the initializer may be a protocol's requirement (a new parameter breaks the conformance)"
    case noBridgeType =
        "no bridge type: name one with bridge-type: (the bridge style), or inject the service itself (not yet automated)"
    case directInFinish = "a direct access of the service: run --phase inject first"
    case bridgeServesOthers = "the bridge parameter also serves services outside --service"
    case notAServiceRead = "not a read of a service (a registration with the container): never moved onto the bridge"
    case bridgeHeaderForSwift =
        "the bridge header declares the Swift bridge forward only: import the module's generated <Module>-Swift.h in it, or name that header in bridge-header:"
    case serviceTypeUnknown =
        "the service's type is not known in the run (no declaration of it in the container's type or @interface, a typed resolve() or an annotated read, in the run or the headers it imports): fix does not guess it"
    case serviceNotObject = "the service is not an object (a property of that type cannot fall back to the container)"
    case serviceCallWithArguments = "a message with arguments to the container, not a read of a service"
    case serviceNameTaken = "the type already has a member named like the service"
    case serviceNoImplementation =
        "the class's own @implementation is not in a file that reads the service (a category)"
    case serviceGetterFallback =
        "the fallback of the injected service's getter: remove the getter once whoever creates the object sets the property"
    case serviceInitializerFallback =
        "the old initializer's container read, passed to the initializer that takes the service (callers that pass the service do not run it)"
    case objcInitializerForm = "an Objective-C initializer fix does not read (its selector, its body, no [super init…])"
    case objcConvenienceInitializer =
        "a convenience initializer (it calls [self init…]): the service goes to the designated one"
    case objcInitializerNameTaken =
        "the initializer names the service's parameter already, or the class has the new initializer's selector"
    case objcInitializerNoInterface = "no @interface of the class in reach to declare the new initializer in"
    case serviceConstructionNotSet =
        "a construction of the class in the run neither passes the service nor sets the property, and has nothing of the service's type in reach"
    case serviceNoConstruction =
        "the run builds the class nowhere it can follow (no construction, a subclass, [[self alloc] …], a view or view controller a storyboard or nib may build): whoever creates it must set the property"
    case containerTypeUnknown = "the container's type is not declared in the run (C: its global's declaration)"
    case reachMayBeNull =
        "the parameter the function would read the container through may be NULL (the function tests it, or a call in the run passes NULL)"
    case noContainerInReach =
        "C function with no parameter of the container's type, nor a struct parameter with a field of it"
    case serviceInitializers = "the Swift type's initializers cannot take the service safely"
    case serviceCallersRelyOnDefault = "callers still rely on the service parameter's default"
    case notBuiltInRun =
        "the run builds the type nowhere (or never calls the setter): wire its bridge where it is built"
    case noBridgeToWire =
        "no bridge to pass where the type is built (no bridge in reach, and the place may not build one)"
    case wiringPlace = "built where fix cannot set the bridge right after construction"
    case initializerSetsServiceFromContainer =
        "an initializer that cannot take a parameter (required or override) sets the service from the container (a fallback left)"
}

/// The whole plan: groups that will be written, groups refused, and items left for a person.
public struct FixPlan: Codable, Sendable {
    public var phase: FixPhase
    public var groups: [FixGroup] = []
    public var manual: [ManualItem] = []
    /// Content digests of the planned files, by real path: `--apply` refuses a file that changed.
    public var digests: [String: String] = [:]
    /// The bytes each digest was computed from (not in the JSON): the dry-run diff compares a
    /// file read again with them rather than hashing it again.
    var digested: [String: [UInt8]] = [:]
    /// Error diagnostics per edited file before and after the edits (libclang or SwiftParser).
    public var diagnostics: [String: DiagnosticCounts] = [:]
    /// Whether planning again on the edited files planned nothing (idempotence).
    public var secondRunEmpty: Bool = true

    private enum CodingKeys: String, CodingKey {
        case phase, groups, manual, digests, diagnostics, secondRunEmpty
    }

    public init(phase: FixPhase) { self.phase = phase }

    /// Groups that passed every check (and are not withheld as unsafe).
    public var accepted: [FixGroup] { groups.filter { $0.refused == nil && $0.withheld != true } }
    /// `unsafe` groups that passed every check, not shown nor written without `--unsafe`.
    public var withheldGroups: [FixGroup] { groups.filter { $0.refused == nil && $0.withheld == true } }

    /// Sets the accepted `unsafe` groups aside (`--apply` without `--unsafe`): they stay in the
    /// JSON plan, counted in the summary, and are neither in the diff nor written.
    public mutating func withholdUnsafe() {
        for i in groups.indices where groups[i].refused == nil && groups[i].safety == .unsafe {
            groups[i].withheld = true
        }
    }
    public var refusedGroups: [FixGroup] { groups.filter { $0.refused != nil } }

    /// Every edit to write, by file, deduplicated (two groups may add the same `@class` line) and sorted.
    public var editsByFile: [String: [TextEdit]] {
        var result: [String: [TextEdit]] = [:]
        for group in accepted {
            for edit in group.edits where !(result[edit.path]?.contains(edit) ?? false) {
                result[edit.path, default: []].append(edit)
            }
        }
        return result.mapValues {
            $0.sorted {
                ($0.range.lowerBound, $0.range.upperBound, $0.order) < (
                    $1.range.lowerBound, $1.range.upperBound, $1.order
                )
            }
        }
    }

    /// `N accesses rewritten in F files; M left for manual work (by reason); K conflicts`.
    public var summary: String {
        let rewritten = accepted.reduce(0) { $0 + $1.targets.count }
        let files = editsByFile.count
        var byReason: [String: Int] = [:]
        for item in manual { byReason[item.reason.rawValue, default: 0] += 1 }
        let reasons = byReason.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let refusedTargets = refusedGroups.reduce(0) { $0 + $1.targets.count }
        let wired = accepted.count
        var line =
            (phase == .wire
                ? "\(wired) composing type\(wired == 1 ? "" : "s") or function\(wired == 1 ? "" : "s") wired in \(files) file\(files == 1 ? "" : "s"); "
                : "\(rewritten) access\(rewritten == 1 ? "" : "es") rewritten in \(files) file\(files == 1 ? "" : "s"); ")
            + "\(manual.count) left for manual work\(reasons.isEmpty ? "" : " (\(reasons))"); "
            + "\(refusedGroups.count) conflict\(refusedGroups.count == 1 ? "" : "s")"
        if refusedTargets > 0 {
            line += " (\(refusedTargets) access\(refusedTargets == 1 ? "" : "es") in refused groups)"
        }
        let unsafe = accepted.filter { $0.safety == .unsafe }
        if !unsafe.isEmpty {
            let n = unsafe.reduce(0) { $0 + $1.targets.count }
            line +=
                "; \(n) of the rewritten in \(unsafe.count) unsafe group\(unsafe.count == 1 ? "" : "s") (behaviour may change)"
        }
        let withheld = withheldGroups
        if !withheld.isEmpty {
            let n = withheld.reduce(0) { $0 + $1.targets.count }
            line +=
                "; \(n) access\(n == 1 ? "" : "es") in \(withheld.count) unsafe group\(withheld.count == 1 ? "" : "s") withheld (--unsafe shows and writes them)"
        }
        let callers = acceptedCallers
        if !callers.isEmpty {
            let explicit = callers.filter(\.explicitDefault)
            let outside = explicit.filter(\.movedOutsideRoot)
            let built = callers.filter(\.fromContainerServices).count
            line +=
                "; \(callers.count) caller\(callers.count == 1 ? "" : "s") given the bridge: \(callers.count - explicit.count - built) from the bridge in reach, "
                + (built > 0 ? "\(built) built from the container's own services, " : "")
                + "\(explicit.count) explicitly (the container read moves to the caller)"
            if !outside.isEmpty {
                let reads = outside.reduce(0) { $0 + $1.reads }
                line +=
                    ", \(outside.count) of them outside the composition root (\(reads) new direct access\(reads == 1 ? "" : "es") there)"
            }
        }
        return line
    }

    /// The callers of accepted groups (Swift `finish`).
    public var acceptedCallers: [FixCaller] { accepted.flatMap(\.callers) }

    /// Whether everything in scope was fixed: nothing manual or refused, idempotent, and no
    /// container read moved to a caller outside the composition root (lint reports it there).
    public var isComplete: Bool {
        manual.isEmpty && refusedGroups.isEmpty && withheldGroups.isEmpty && secondRunEmpty
            && !acceptedCallers.contains(where: \.movedOutsideRoot)
    }
}

/// Error diagnostics of a file before and after the planned edits.
public struct DiagnosticCounts: Codable, Equatable, Sendable {
    public var before: Int
    public var after: Int
    /// Error messages after the edits that no error before had.
    public var new: [String]
    /// Errors after the edits that the edits exposed rather than made (`ExposedError`): in a
    /// block literal's body inside a statement the parse before the edits dropped. Each with its
    /// line and the edit nearest above it; absent when there is none.
    public var exposed: [String]? = nil
}
