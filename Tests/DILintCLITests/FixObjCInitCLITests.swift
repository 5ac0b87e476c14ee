import Foundation
import SeamTestSupport
import XCTest

/// The Objective-C initializer forms of the service style, through the built binary on the
/// fixture trees in `Tests/DILintEngineTests/Fixtures/fix/<name>`: each phase's dry-run diff
/// passes `git apply --check`, `--apply` leaves each file byte for byte as its `.inject` /
/// `.finish` twin, the re-lint finds a direct access only where the plan listed one, and a
/// second run plans nothing.
final class FixObjCInitCLITests: XCTestCase {
    static let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix")

    /// Reads inside a designated initializer become the parameter of a new `-initWith…svc:`
    /// (declared beside the old one, `NS_DESIGNATED_INITIALIZER` moved to it, or in the class's
    /// header), the old initializer delegating with the container read; callers pass a parameter
    /// or property of the service's type, the others keep the old initializer; a convenience
    /// initializer's read stays, with its reason.
    func testInitializerReadsBecomeParametersAndCallersPassWhatTheyHave() throws {
        let plans = try runFixture("objcinit", unsafe: true)
        let inject = plans[0]
        XCTAssertEqual(
            titles(inject),
            [
                "Objective-C class Cache initializer -init takes store",
                "Objective-C class Timer initializer -initWithName: takes clock",
            ])
        XCTAssertEqual(manualReasons(inject), ["Cache.m:20 objcConvenienceInitializer"])
        let timer = groups(inject).first { ($0["title"] as? String)?.contains("Timer") == true }
        XCTAssertEqual(timer?["tier"] as? String, "unsafe") // its callers pass their own clock
        let cache = groups(inject).first { ($0["title"] as? String)?.contains("Cache") == true }
        XCTAssertEqual(cache?["tier"] as? String, "safe") // no caller has a store: they keep -init
        // finish: callers of the old -initWithName: call the new one (the read moves to the one with
        // nothing in reach, its container import added), and it goes; the old -init stays, listed
        XCTAssertEqual(
            titles(plans[1]),
            ["finish Objective-C class Timer initializer -initWithName: (callers call -initWithName:clock:)"])
        XCTAssertEqual(groups(plans[1]).first?["tier"] as? String, "unsafe")
        XCTAssertEqual(
            manualReasons(plans[1]), ["Cache.m:10 serviceInitializerFallback", "Cache.m:24 directInFinish"])
    }

    /// Safe-only `--apply` leaves the unsafe group (callers passing their own clock) out, and
    /// writes the safe one.
    func testSafeApplyWritesOnlyTheGroupWithoutCallerChanges() throws {
        let project = try fixtureProject("objcinit")
        let run = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertEqual(run.status, 1, run.stderr) // manual items and a withheld group are left
        XCTAssertTrue(run.stderr.contains("unsafe group withheld"), run.stderr)
        XCTAssertEqual(try project.read("Timer.m"), try String(contentsOf: fixture("objcinit", "Timer.m.in")))
        XCTAssertEqual(try project.read("Cache.m"), try String(contentsOf: fixture("objcinit", "Cache.m.inject")))
    }

    /// finish removes the service getter's fallback when every construction in the run sets the
    /// property: a statement `v = [[C alloc] init];` gets `v.svc = <in reach>;`. A class built
    /// where nothing of the type is in reach, and a view controller (a storyboard may build it),
    /// keep their getters, listed.
    func testFinishRemovesTheGetterWhenEveryConstructionSetsTheProperty() throws {
        let plans = try runFixture("objcfinish", unsafe: true)
        XCTAssertEqual(
            titles(plans[0]),
            [
                "Objective-C class Feed service clock", "Objective-C class Panel service clock",
                "Objective-C class Ticker service clock",
            ])
        XCTAssertEqual(titles(plans[1]), ["finish Objective-C class Feed service clock"])
        XCTAssertEqual(groups(plans[1]).first?["tier"] as? String, "unsafe") // no composition root in the run
        // Panel is a UIViewController (a storyboard may build it); Ticker is built in a `return`
        XCTAssertEqual(
            manualReasons(plans[1]), ["Panel.m:17 serviceNoConstruction", "Ticker.m:21 serviceConstructionNotSet"])
    }

    /// A Swift initializer Objective-C sees (an `NSObject` subclass's, sent from an Objective-C
    /// file of the run) that gains the service's parameter: each `[[T alloc] initWithName:…]`
    /// passes the service it has in reach, with the selector Swift generates (`initWithName:tabs:`).
    /// The Swift files type-check before and after.
    func testSwiftInitializerSeenByObjectiveCHasItsSendersUpdated() throws {
        let plans = try runFixture("swiftobjcinit", unsafe: true, typeCheck: ["Support.swift", "Browser.swift"])
        XCTAssertEqual(titles(plans[0]), ["Swift type Browser: service tabs"])
        XCTAssertEqual(groups(plans[0]).first?["tier"] as? String, "unsafe")
        XCTAssertEqual(manualReasons(plans[0]), [])
    }

    /// A sender with nothing of the service's type in reach (a C function): the type is refused,
    /// named with the sender, and nothing is written.
    func testSwiftInitializerWithASenderWithNothingInReachIsRefused() throws {
        var files: [String: String] = [".di-lint.yml": "containers: [Container.shared]\n"]
        for name in ["Support.swift", "Browser.swift"] {
            files[name] = try String(contentsOf: fixture("swiftobjcinit", name + ".in"), encoding: .utf8)
        }
        files["Launcher.m"] =
            "@class Browser;\n\nvoid launch(void) {\n    (void)[[Browser alloc] initWithName:@\"x\"];\n}\n"
        let project = try Project(self, files: files)
        let run = try project.run("fix", "--phase", "inject", "--unsafe", ".")
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(
            run.stderr.contains(
                "its initializer is visible to Objective-C: 'initWithName:' is sent at Launcher.m:4:11, where nothing of type TabStore is in reach"
            ), run.stderr)
    }

    /// Ten runs of one headerless Objective-C case (no SDK: every parse has errors) give the same
    /// plan and verdict.
    func testTenRunsGiveTheSameVerdict() throws {
        let project = try fixtureProject("objcinit")
        var outputs = Set<String>()
        for _ in 0..<10 {
            let run = try project.run("fix", "--phase", "inject", "--unsafe", "--format", "json", ".")
            outputs.insert(run.stdout)
        }
        XCTAssertEqual(outputs.count, 1, outputs.sorted().joined(separator: "\n----\n"))
    }

    // MARK: Support

    private func fixture(_ name: String, _ file: String) -> URL {
        Self.fixtures.appendingPathComponent(name).appendingPathComponent(file)
    }

    /// The fixture's `.in` files (suffix dropped) and its `fix.yml` as `.di-lint.yml`, committed.
    private func fixtureProject(_ name: String) throws -> Project {
        var files: [String: String] = [:]
        let folder = Self.fixtures.appendingPathComponent(name)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".in") {
            files[String(file.dropLast(3))] = try String(
                contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        files[".di-lint.yml"] = try String(contentsOf: folder.appendingPathComponent("fix.yml"), encoding: .utf8)
        let project = try Project(self, files: files)
        try project.commitEverything()
        return project
    }

    /// Inject then finish with every check; the JSON plan of each phase.
    private func runFixture(_ name: String, unsafe: Bool, typeCheck: [String] = []) throws -> [[String: Any]] {
        let project = try fixtureProject(name)
        let folder = Self.fixtures.appendingPathComponent(name)
        let extra = unsafe ? ["--unsafe"] : []
        var plans: [[String: Any]] = []
        try self.typeCheck(typeCheck, in: project, "before")
        for phase in ["inject", "finish"] {
            let json = try project.runArray(["fix", "--phase", phase, "--format", "json"] + extra + ["."])
            let plan = json.json
            plans.append(plan)
            XCTAssertTrue(
                groups(plan).allSatisfy { $0["refused"] == nil }, "\(name) \(phase): refused: \(json.stdout)")
            // the dry-run diff applies
            let dry = try project.runArray(["fix", "--phase", phase] + extra + ["."])
            if !dry.stdout.isEmpty {
                let patch = project.root.appendingPathComponent(".git/\(phase).patch")
                try Data(dry.stdout.utf8).write(to: patch)
                let check = try runProcess("/usr/bin/env", ["git", "apply", "--check", patch.path], in: project.root)
                XCTAssertEqual(check.status, 0, "\(name) \(phase): git apply --check: \(check.stderr)\n\(dry.stdout)")
            }
            let apply = try project.runArray(["fix", "--phase", phase, "--apply"] + extra + ["."])
            XCTAssertNotEqual(apply.status, 2, apply.stderr)
            try self.typeCheck(typeCheck, in: project, phase)
            // byte for byte
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".in") {
                let base = String(file.dropLast(3))
                let want = [phase == "finish" ? ".finish" : nil, ".inject", ".in"].compactMap { $0 }
                    .map { folder.appendingPathComponent(base + $0) }
                    .first { FileManager.default.fileExists(atPath: $0.path) }!
                let got = try Data(contentsOf: project.root.appendingPathComponent(base))
                XCTAssertEqual(
                    got, try Data(contentsOf: want),
                    "\(name) \(phase): \(base) differs from \(want.lastPathComponent):\n\(String(decoding: got, as: UTF8.self))"
                )
            }
            // re-lint: a direct access only where the plan listed one
            let lint = try project.run("lint", "--format", "json", ".")
            // (after finish a fallback left is listed too)
            let direct = ((lint.json["findings"] as? [[String: Any]]) ?? []).filter {
                $0["rule"] as? String == "container-access"
                    || (phase == "finish" && $0["rule"] as? String == "container-fallback")
            }.map {
                "\(($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""):\($0["line"] ?? 0)"
            }
            let listed = ((plan["manual"] as? [[String: Any]]) ?? []).map {
                "\(($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""):\($0["line"] ?? 0)"
            }
            if phase == "finish" {
                // and the reads finish moved to callers (new direct accesses there, counted in the plan)
                let moved = groups(plan).flatMap { ($0["callers"] as? [[String: Any]]) ?? [] }.flatMap { caller in
                    Array(
                        repeating: (caller["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "",
                        count: caller["reads"] as? Int ?? 0)
                }
                let unlisted = direct.filter { !listed.contains($0) }.map { String($0.prefix { $0 != ":" }) }
                XCTAssertEqual(unlisted.sorted(), moved.sorted(), "\(name) \(phase): \(lint.stdout)")
                XCTAssertEqual(Set(listed).subtracting(direct), [], "\(name) \(phase): \(lint.stdout)")
            } else {
                // after inject, the old initializers' delegating reads are new direct accesses the
                // second run lists; nothing else is direct but what was listed
                let again = try project.runArray(["fix", "--phase", phase, "--format", "json"] + extra + ["."]).json
                let listedAgain = ((again["manual"] as? [[String: Any]]) ?? []).map {
                    "\(($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""):\($0["line"] ?? 0)"
                }
                XCTAssertEqual(Set(direct), Set(listedAgain), "\(name) \(phase): \(lint.stdout)")
            }
            // a second run plans nothing
            let second = try project.runArray(["fix", "--phase", phase] + extra + ["."])
            XCTAssertEqual(second.stdout, "", "\(name) \(phase): second run: \(second.stderr)")
            let secondPlan = try project.runArray(["fix", "--phase", phase, "--format", "json"] + extra + ["."]).json
            XCTAssertTrue(
                groups(secondPlan).allSatisfy { (($0["edits"] as? [Any]) ?? []).isEmpty },
                "\(name) \(phase): second run plans \(titles(secondPlan))")
        }
        return plans
    }

    /// `swiftc -typecheck` of Swift files that need only Foundation.
    private func typeCheck(_ files: [String], in project: Project, _ when: String) throws {
        guard !files.isEmpty else { return }
        let result = try runProcess("/usr/bin/env", ["swiftc", "-typecheck"] + files, in: project.root)
        XCTAssertEqual(result.status, 0, "\(when): swiftc -typecheck: \(result.stderr)")
    }

    private func groups(_ plan: [String: Any]) -> [[String: Any]] { (plan["groups"] as? [[String: Any]]) ?? [] }

    private func titles(_ plan: [String: Any]) -> [String] {
        groups(plan).filter { $0["refused"] == nil }.compactMap { $0["title"] as? String }.sorted()
    }

    private func manualReasons(_ plan: [String: Any]) -> [String] {
        ((plan["manual"] as? [[String: Any]]) ?? []).map {
            "\(($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""):\($0["line"] ?? 0) \(reasonName($0["reason"] as? String ?? ""))"
        }.sorted()
    }

    /// The reason's case name from its text (the JSON holds the text).
    private func reasonName(_ text: String) -> String {
        let names: [String: String] = [
            "a convenience initializer (it calls [self init…]): the service goes to the designated one":
                "objcConvenienceInitializer",
            "a direct access of the service: run --phase inject first": "directInFinish",
            "the old initializer's container read, passed to the initializer that takes the service (callers that pass the service do not run it)":
                "serviceInitializerFallback",
            "a construction of the class in the run neither passes the service nor sets the property, and has nothing of the service's type in reach":
                "serviceConstructionNotSet",
            "the run builds the class nowhere it can follow (no construction, a subclass, [[self alloc] …], a view or view controller a storyboard or nib may build): whoever creates it must set the property":
                "serviceNoConstruction",
        ]
        return names[text] ?? text
    }
}
