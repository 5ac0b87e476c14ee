import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint init [PATH…]`: find the container, write a starting `.di-lint.yml` (and a baseline).
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Find the singleton accessors the tree calls most, and write a starting .di-lint.yml for one.",
        discussion: """
            A text scan, no parse: [Type shared…], Type.shared…, Type::instance() and C accessor functions, of types \
            and functions the tree declares. On a terminal it asks which one to use; otherwise (or with --container) \
            it does not ask: it takes --container, else the most called. Exits 0 when the config was written, 2 when \
            nothing was found or the file exists (--force overwrites).

            Examples:
              di-lint init                                  # list, ask, write .di-lint.yml
              di-lint init Sources --baseline               # also accept today's findings
              di-lint init --bridge-type AppBridge          # name the bridge for di-lint fix
              di-lint init --container 'AppContainer.shared' < /dev/null
            """)

    @Argument(help: ArgumentHelp("Files and directories to scan (default: the working directory).", valueName: "path"))
    var paths: [String] = ["."]

    @Option(
        help: ArgumentHelp(
            "Use this accessor without asking: Type.accessor, Type::accessor or function().", valueName: "spec"))
    var container: String?

    @Option(
        help: ArgumentHelp(
            "Skip paths matching this glob (*, **, ?). Repeatable; also written to the config.", valueName: "glob"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("The config file to write.", valueName: "file"))
    var output = ".di-lint.yml"

    @Flag(help: "Overwrite an existing config file (and, with --baseline, an existing baseline).")
    var force = false

    @Flag(help: "Also lint with the new config and write every finding to the baseline (--baseline-file).")
    var baseline = false

    @Option(help: ArgumentHelp("The baseline --baseline writes.", valueName: "file"))
    var baselineFile = ".di-lint-baseline.json"

    @Option(
        help: ArgumentHelp(
            "The bridge's type, for di-lint fix (written as bridge-type:, with bridge: [bridge]).", valueName: "type"))
    var bridgeType: String?

    @Option(help: ArgumentHelp("How many candidates to list.", valueName: "n"))
    var limit = 10

    func validate() throws {
        if let container {
            do { _ = try ContainerSpec(parsing: container) } catch { throw ValidationError("--container: \(error)") }
        }
        guard limit > 0 else { throw ValidationError("--limit must be a positive number") }
        func isName(_ s: Substring) -> Bool {
            guard let first = s.first, first.isLetter || first == "_" else { return false }
            return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        if let bridgeType, !bridgeType.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isName) {
            throw ValidationError("--bridge-type: '\(bridgeType)' is not a type name")
        }
    }

    func run() throws {
        var st = stat()
        if !force && lstat(output, &st) == 0 {
            throw RunFailure(
                message: "\(output) exists; --force overwrites it, or edit it (docs/configuration.md lists every key)")
        }
        // a baseline holds the findings a team accepted: never replaced without being asked
        if baseline && !force && lstat(baselineFile, &st) == 0 {
            throw RunFailure(
                message: "\(baselineFile) exists; --force overwrites it, or --baseline-file names another file")
        }
        let started = Date()
        let files: [String]
        do {
            files = try FileCollector(excludes: exclude, baseDirectory: FileManager.default.currentDirectoryPath)
                .collectReporting(paths).files
        } catch {
            throw RunFailure(error)
        }
        let candidates = SingletonScan().candidates(files: files)
        let shown = Array(candidates.prefix(limit))
        note(String(format: "di-lint init: scanned %d files in %.1f s", files.count, Date().timeIntervalSince(started)))
        var listing = ""
        for (i, c) in shown.enumerated() {
            let services = c.services.prefix(5).map { "\($0.name) \($0.count)" }.joined(separator: ", ")
            listing +=
                "\(String(format: "%2d", i + 1)). \(c.spec)  \(c.callSites) call site\(c.callSites == 1 ? "" : "s") in \(c.files) file\(c.files == 1 ? "" : "s")"
                + (services.isEmpty ? "" : "; services: \(services)") + "\n"
        }
        try StandardStreams.writeOutput(listing)

        let chosen: SingletonScan.Candidate
        if let container {
            let spec = container.trimmingCharacters(in: .whitespaces)
            chosen =
                candidates.first { $0.spec == spec }
                ?? SingletonScan.Candidate(spec: spec, callSites: 0, files: 0, services: [])
        } else if shown.isEmpty {
            throw RunFailure(
                message:
                    "no singleton accessor is called at 2 places or more under \(paths.joined(separator: " ")); name the container with --container 'Type.accessor'"
            )
        } else if isatty(0) == 1 {
            chosen = try ask(shown)
        } else {
            chosen = shown[0]
            note("di-lint init: standard input is not a terminal: taking \(chosen.spec) (--container chooses)")
        }

        do {
            try OutputFile.write(
                Data(Self.config(for: chosen, exclude: exclude, bridgeType: bridgeType).utf8), to: output)
        } catch {
            throw RunFailure(error)
        }
        note("di-lint init: wrote \(output) for \(chosen.spec)")
        guard baseline else {
            note("di-lint init: next: di-lint \(paths.joined(separator: " ")) --write-baseline \(baselineFile)")
            return
        }
        var lint = try LintCommand.parse(paths + ["--config", output, "--write-baseline", baselineFile, "--quiet"])
        do {
            try lint.run()
        } catch let code as ExitCode where code == .success {
            // the baseline accepts every finding: the gate passes
        }
        note("di-lint init: the gate: di-lint \(paths.joined(separator: " ")) --baseline \(baselineFile)")
    }

    /// Asks on the terminal which candidate to use; an empty answer takes the first.
    private func ask(_ shown: [SingletonScan.Candidate]) throws -> SingletonScan.Candidate {
        while true {
            StandardStreams.raw("Write \(output) for which accessor? [1-\(shown.count), Enter: 1] ")
            guard let line = readLine() else { return shown[0] }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty { return shown[0] }
            if let n = Int(answer), (1...shown.count).contains(n) { return shown[n - 1] }
            if let c = shown.first(where: { $0.spec == answer }) { return c }
            note("di-lint init: answer a number from 1 to \(shown.count)")
        }
    }

    /// A minimal, commented config for one accessor.
    static func config(for c: SingletonScan.Candidate, exclude: [String], bridgeType: String? = nil) -> String {
        func quoted(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var text = "# Written by `di-lint init`. Every key: docs/configuration.md in Seam.\n\n"
        text += "# The container: the singleton the code migrates off. Each direct access is a finding.\n"
        if c.callSites > 0 {
            text +=
                "# \(c.callSites) call site\(c.callSites == 1 ? "" : "s") in \(c.files) file\(c.files == 1 ? "" : "s")"
                + (c.services.isEmpty
                    ? ""
                    : "; top services: "
                        + c.services.prefix(5).map { "\($0.name) (\($0.count))" }.joined(separator: ", ")) + ".\n"
        }
        text += "containers:\n  - \(quoted(c.spec))\n\n"
        text += "# Paths to skip (globs: *, **, ?).\n"
        text +=
            exclude.isEmpty
            ? "# exclude: [\"Tests/**\", \"Vendor/**\"]\n\n"
            : "exclude: [\(exclude.map(quoted).joined(separator: ", "))]\n\n"
        text += """
            # Where the container may still be touched: where the bridge is built.
            # composition-root:
            #   paths: ["App/Bootstrap/**"]
            #   types: ["AppCompositionRoot"]

            # allow: an access guarded by the bridge with a container fallback passes (phase 1).
            # warn, then error: the fallbacks go too (phase 2).
            fallback: allow

            # For `di-lint fix`: the bridge's name and its type.

            """
        text +=
            bridgeType.map { "bridge: [bridge]\nbridge-type: \($0)\n" }
            ?? "# bridge: [bridge]\n# bridge-type: AppBridge\n"
        return text
    }
}
