/// The bridge-name and composition-root policies, in one place for both front ends.
extension Configuration {
    /// Whether a name is a configured bridge name, or one with a leading underscore (an ivar).
    func isBridgeName(_ name: String) -> Bool {
        bridgeNames.contains(name) || (name.hasPrefix("_") && bridgeNames.contains(String(name.dropFirst())))
    }

    /// The bridge names and their ivar spellings (`bridge`, `_bridge`).
    var bridgeNamesWithIvars: Set<String> { Set(bridgeNames + bridgeNames.map { "_" + $0 }) }

    /// Whether a type or variable name mentions a bridge name, in any case (`SentryCrashBridge`, `sharedBridge`).
    func mentionsBridge(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return bridgeNames.contains { lowered.contains($0.lowercased()) }
    }

    /// Whether a type's name is the bridge type or a facade or provider type, by how the seeds and
    /// the migrations seen name them (`CrashBridge`, `DateProvider`, `ReporterBridgeServices`).
    /// With `snakeCase`, C spellings count too (`struct crash_bridge`).
    func isBridgeTypeName(_ name: String, snakeCase: Bool = false) -> Bool {
        if name == bridgeType || Self.bridgeTypeSuffixes.contains(where: { name.hasSuffix($0) }) { return true }
        guard snakeCase else { return false }
        let lowered = name.lowercased()
        return lowered == bridgeType.lowercased()
            || Self.bridgeTypeSuffixes.contains { lowered.hasSuffix("_" + $0.lowercased()) }
    }

    /// How the seeds and the migrations seen name a facade's type or the protocols it conforms to.
    static let bridgeTypeSuffixes = ["Bridge", "Provider", "Providing", "Services", "Facade"]

    /// Setter selectors and methods of the bridge: `setBridge` for `bridge`.
    var bridgeSetterNames: Set<String> { Set(bridgeNames.map { "set" + $0.capitalizedFirst }) }

    /// Whether a file (as displayed) lies in the composition root's `paths`.
    func isCompositionRootPath(_ displayPath: String) -> Bool {
        let relative = FileCollector.relative(displayPath, to: baseDirectory)
        return compositionRoot.paths.contains { Glob.matches($0, relative) || Glob.matches($0, displayPath) }
    }

    /// Whether a function or method name is one of the composition root's `functions`.
    func isCompositionRootFunction(_ name: String) -> Bool {
        compositionRoot.functions.contains { Glob.matches($0, name) }
    }

    /// Whether a type name is one of the composition root's `types`.
    func isCompositionRootType(_ name: String) -> Bool {
        compositionRoot.types.contains { Glob.matches($0, name) }
    }

    /// Swift types whose static members all reach the container (`container-access`'s `swift-helper-types`).
    var swiftHelperTypes: [String] { options(of: ContainerAccessRule.self).swiftHelperTypes }

    /// Whether the composition root names any function or type (paths aside).
    var compositionRootNamesCode: Bool { !compositionRoot.functions.isEmpty || !compositionRoot.types.isEmpty }
}

extension String {
    /// `bridge` → `Bridge` (for `setBridge:`).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension Configuration {
    /// The configured containers plus the helper types of `container-access`'s `swift-helper-types`
    /// (`Helper`: every static member; `Helper.member`: only the members listed), in every language.
    var accessSpecs: [ContainerSpec] {
        var specs = containers
        for entry in swiftHelperTypes {
            let parts = entry.split(separator: ".", maxSplits: 1).map(String.init)
            specs.append(.member(type: parts[0], accessor: parts.count == 2 ? parts[1] : "*"))
        }
        return specs + ambientProperties.map(ContainerSpec.ambient)
    }
}
