import Foundation

/// The steps that make a run's `Configuration`: the config file (re-read), then the command
/// line's additions and overrides. `di-lint` builds its configuration through it, and each parse
/// worker builds its own from the same recipe, then checks that the two configurations'
/// canonical descriptions (what the cache keys on: every field, by reflection) are the same.
public struct ConfigurationRecipe: Sendable, Equatable {
    /// The config file, nil for the defaults in the working directory.
    public var configPath: String?
    /// `--container` specs, added to the config's.
    public var containers: [String] = []
    /// `--exclude` globs, added to the config's.
    public var exclude: [String] = []
    /// `--[no-]header-map`, over the config's `header-map`.
    public var headerMap: Bool?
    /// The header map written for the run (set once the tree is walked).
    public var headerMapFile: HeaderMapFile?
    /// `--parse-timeout`, over the config's `parse-timeout`.
    public var parseTimeout: Double?
    /// `--parse-memory-limit` (MiB), over the config's `parse-memory-limit`.
    public var parseMemoryLimit: Int?
    /// `di-lint report`: count service-style injected reads (`Configuration.countServiceInjection`).
    public var countServiceInjection = false

    public init(
        configPath: String? = nil, containers: [String] = [], exclude: [String] = [], headerMap: Bool? = nil,
        headerMapFile: HeaderMapFile? = nil, parseTimeout: Double? = nil, parseMemoryLimit: Int? = nil
    ) {
        self.configPath = configPath
        self.containers = containers
        self.exclude = exclude
        self.headerMap = headerMap
        self.headerMapFile = headerMapFile
        self.parseTimeout = parseTimeout
        self.parseMemoryLimit = parseMemoryLimit
    }

    /// The configuration; throws what loading the config file or parsing a container spec throws.
    public func build() throws -> Configuration {
        var configuration = try configPath.map { try Configuration.load(path: $0) } ?? Configuration()
        configuration.containers += try containers.map(ContainerSpec.init(parsing:))
        configuration.exclude += exclude
        if let headerMap { configuration.headerMap = headerMap }
        if let parseTimeout { configuration.parseTimeout = parseTimeout }
        if let parseMemoryLimit { configuration.parseMemoryLimit = parseMemoryLimit }
        configuration.headerMapFile = headerMapFile
        configuration.countServiceInjection = countServiceInjection
        return configuration
    }

    /// What a worker compares its configuration by.
    static func digest(_ configuration: Configuration) -> String {
        SHA256.hex(CanonicalDescription.of(configuration))
    }
}

extension HeaderMapFile: Equatable {
    public static func == (a: HeaderMapFile, b: HeaderMapFile) -> Bool { a.path == b.path && a.digest == b.digest }
}
