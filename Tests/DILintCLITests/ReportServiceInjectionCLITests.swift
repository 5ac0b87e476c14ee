import Foundation
import SeamTestSupport
import XCTest

/// `di-lint report` counts service-style injected accesses: a read of a stored property or an
/// initializer parameter whose type the container vends, outside the composition root and the
/// container's own types.
final class ReportServiceInjectionCLITests: XCTestCase {
    static let config = """
        containers: [Container.shared]
        composition-root:
          types: [AppDelegate]

        """

    /// The container: two services by property and method, a `String` it also vends, and a read
    /// of its own stored property (its implementation, never counted).
    static let container = """
        final class TabStore { func count() -> Int { 0 } }
        final class Clock { func now() -> Int { 0 } }
        final class Formatter { func format() -> String { "" } }
        final class Container {
            static let shared = Container()
            let tabs: TabStore = TabStore()
            func clock() -> Clock { Clock() }
            var appName: String = "app"
            func describe() -> Int { tabs.count() }
        }

        """

    /// Before: the browser reads both services from the container.
    static let before = """
        final class Browser {
            private let title: String
            private let formatter: Formatter
            init(title: String, formatter: Formatter) { self.title = title; self.formatter = formatter }
            func open() -> Int { Container.shared.tabs.count() }
            func reopen() -> Int { Container.shared.tabs.count() }
            func time() -> Int { Container.shared.clock().now() }
            func label() -> String { title + formatter.format() }
        }

        """

    /// After the service-style migration of `tabs`: a stored `let tabs: TabStore` set by an
    /// initializer parameter defaulting to the container read (a fallback); `clock` is left.
    static let after = """
        final class Browser {
            private let title: String
            private let formatter: Formatter
            private let tabs: TabStore
            init(title: String, formatter: Formatter, tabs: TabStore = Container.shared.tabs) {
                self.title = title; self.formatter = formatter; self.tabs = tabs
                _ = tabs.count()
            }
            func open() -> Int { tabs.count() }
            func reopen() -> Int { self.tabs.count() }
            func time() -> Int { Container.shared.clock().now() }
            func label() -> String { title + formatter.format() }
            func later() { DispatchQueue.main.async { [weak self] in _ = self?.tabs.count() } }
        }

        """

    /// The composition root holds a service of its own: its reads are not counted.
    static let root = """
        final class AppDelegate {
            let tabs: TabStore = Container.shared.tabs
            func start() -> Int { tabs.count() }
        }

        """

    func testCountsServiceStyleInjectedReadsPerFileAndService() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": Self.config, "Container.swift": Self.container, "Browser.swift": Self.before,
                "AppDelegate.swift": Self.root,
            ])
        let before = try project.run("report", "--format", "json", ".")
        XCTAssertEqual(before.status, 0, before.stderr)
        let beforeTotal = try XCTUnwrap(before.json["total"] as? [String: Any], before.stdout)
        XCTAssertEqual(beforeTotal["direct"] as? Int, 3, before.stdout)
        XCTAssertEqual(beforeTotal["injected"] as? Int, 0, before.stdout)

        try Self.after.write(
            to: project.root.appendingPathComponent("Browser.swift"), atomically: true, encoding: .utf8)
        let after = try project.run("report", "--format", "json", ".")
        XCTAssertEqual(after.status, 0, after.stderr)
        let total = try XCTUnwrap(after.json["total"] as? [String: Any], after.stdout)
        // the initializer's own read, tabs, self.tabs and self?.tabs; not `self.tabs = tabs`, the
        // String, the Formatter, the container's own read, nor the composition root's
        XCTAssertEqual(total["injected"] as? Int, 4, after.stdout)
        XCTAssertEqual(total["direct"] as? Int, 1, after.stdout)
        XCTAssertEqual(total["fallback"] as? Int, 1, after.stdout)
        XCTAssertEqual(total["percentMigrated"] as? Double, 66.7, after.stdout)
        let files = try XCTUnwrap(after.json["files"] as? [[String: Any]])
        let byFile = Dictionary(uniqueKeysWithValues: files.map { ($0["name"] as! String, $0["injected"] as! Int) })
        XCTAssertEqual(byFile["Browser.swift"], 4, after.stdout)
        XCTAssertEqual(byFile["Container.swift"], nil, after.stdout)
        XCTAssertEqual(byFile["AppDelegate.swift"] ?? 0, 0, after.stdout)
        let services = try XCTUnwrap(after.json["services"] as? [[String: Any]])
        let tabs = try XCTUnwrap(services.first { $0["name"] as? String == "tabs" }, after.stdout)
        XCTAssertEqual(tabs["injected"] as? Int, 4)
        XCTAssertEqual(tabs["fallback"] as? Int, 1)
        XCTAssertEqual(tabs["direct"] as? Int, 0)
        let clock = try XCTUnwrap(services.first { $0["name"] as? String == "clock" }, after.stdout)
        XCTAssertEqual(clock["injected"] as? Int, 0)
        XCTAssertEqual(clock["direct"] as? Int, 1)

        // finish: the default removed, the container no longer named in the file, still counted
        let finished = Self.after.replacingOccurrences(of: " = Container.shared.tabs", with: "")
        try finished.write(to: project.root.appendingPathComponent("Browser.swift"), atomically: true, encoding: .utf8)
        let done = try project.run("report", "--format", "json", "Browser.swift", "Container.swift")
        let doneTotal = try XCTUnwrap(done.json["total"] as? [String: Any], done.stdout)
        XCTAssertEqual(doneTotal["injected"] as? Int, 4, done.stdout)
        XCTAssertEqual(doneTotal["fallback"] as? Int, 0, done.stdout)

        // without the container's declaration in the run, nothing says TabStore is a service
        let alone = try project.run("report", "--format", "json", "Browser.swift")
        let aloneTotal = try XCTUnwrap(alone.json["total"] as? [String: Any], alone.stdout)
        XCTAssertEqual(aloneTotal["injected"] as? Int, 0, alone.stdout)
    }

    /// A type whose stored property has a type the container does not vend, named like a service.
    func testUnrelatedTypesAndLocalsAreNotCounted() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": Self.config, "Container.swift": Self.container,
                "Other.swift": """
                final class Other {
                    let tabs: Formatter
                    let appName: String
                    init(tabs: Formatter, appName: String) { self.tabs = tabs; self.appName = appName }
                    func run() -> String { tabs.format() + appName }
                    func local() -> Int { let store: TabStore = TabStore(); return store.count() }
                    func parameter(_ store: TabStore) -> Int { store.count() }
                }
                final class Shadowed {
                    private let tabs: TabStore
                    init(tabs: TabStore) { self.tabs = tabs }
                    func counted() -> Int { tabs.count() }
                    func parameter(tabs: Formatter) -> String { tabs.format() }
                    func local() -> String { let tabs = Formatter(); return tabs.format() }
                    func closure() -> [String] { [Formatter()].map { tabs in tabs.format() } }
                }

                """,
            ])
        let run = try project.run("report", "--format", "json", ".")
        XCTAssertEqual(run.status, 0, run.stderr)
        let total = try XCTUnwrap(run.json["total"] as? [String: Any], run.stdout)
        // only `Shadowed.counted`'s read: a parameter, local or closure parameter of the same name hides the property
        XCTAssertEqual(total["injected"] as? Int, 1, run.stdout)
    }

    /// `--history` over a service-style migration: injected accesses appear as direct ones go.
    func testHistoryShowsInjectedAccessesAppearing() throws {
        let project = try Project(
            self,
            files: [".di-lint.yml": Self.config, "Container.swift": Self.container, "Browser.swift": Self.before])
        try project.commitEverything()
        try Self.after.write(
            to: project.root.appendingPathComponent("Browser.swift"), atomically: true, encoding: .utf8)
        try project.git("commit", "-qam", "inject tabs")
        let home = project.root.appendingPathComponent("home").path
        let arguments = [
            "report", "--history", "HEAD", "--cache", project.root.appendingPathComponent("cache").path, ".",
        ]
        let first = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertEqual(first.status, 0, first.stderr)
        let rows = first.stdout.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(rows.map { Array($0[2...4]) }, [["3", "0", "0"], ["1", "1", "4"]], first.stdout)
        let second = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stderr.components(separatedBy: "(0 parsed,").count - 1, 2, second.stderr)
    }

    /// Objective-C: the class's property (declared in its header) and its `init…` parameter.
    func testCountsObjectiveCPropertyAndInitializerParameterReads() throws {
        let header = """
            #import <Foundation/Foundation.h>
            @class TabStore;
            @interface Browser : NSObject
            @property (nonatomic, strong, readonly) TabStore *tabs;
            @property (nonatomic, copy) NSString *title;
            - (instancetype)initWithTabs:(TabStore *)tabs title:(NSString *)title;
            @end

            """
        let container = """
            #import <Foundation/Foundation.h>
            @class TabStore;
            @class Clock;
            @interface Container : NSObject
            + (instancetype)sharedInstance;
            @property (nonatomic, strong, readonly) TabStore *tabs;
            - (Clock *)clock;
            @property (nonatomic, copy) NSString *appName;
            @end

            """
        let containerImplementation = """
            #import "Container.h"
            @implementation Container
            + (instancetype)sharedInstance { static Container *c; return c; }
            - (Clock *)clock { return nil; }
            - (NSInteger)count { return [_tabs count] + [self.tabs count]; }
            @end

            """
        let before = """
            #import "Browser.h"
            #import "Container.h"
            @implementation Browser
            - (instancetype)initWithTabs:(TabStore *)tabs title:(NSString *)title {
                if ((self = [super init])) { _title = title; }
                return self;
            }
            - (NSInteger)open { return [Container.sharedInstance.tabs count]; }
            - (NSInteger)reopen { return [[Container sharedInstance].tabs count]; }
            - (id)time { return [Container.sharedInstance clock]; }
            - (NSUInteger)label { return self.title.length; }
            @end

            """
        let after = """
            #import "Browser.h"
            #import "Container.h"
            @implementation Browser
            - (instancetype)initWithTabs:(TabStore *)tabs title:(NSString *)title {
                if ((self = [super init])) { _tabs = tabs; _title = title; [tabs count]; }
                return self;
            }
            - (NSInteger)open { return [self.tabs count]; }
            - (NSInteger)reopen { return [[self tabs] count] + [_tabs count]; }
            - (id)time { return [Container.sharedInstance clock]; }
            - (NSUInteger)label { return self.title.length; }
            @end

            """
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.sharedInstance]\n", "Browser.h": header,
                "Container.h": container, "Container.m": containerImplementation, "Browser.m": before,
            ])
        let first = try project.run("report", "--format", "json", ".")
        XCTAssertEqual(first.status, 0, first.stderr)
        let firstTotal = try XCTUnwrap(first.json["total"] as? [String: Any], first.stdout)
        XCTAssertEqual(firstTotal["direct"] as? Int, 3, first.stdout)
        XCTAssertEqual(firstTotal["injected"] as? Int, 0, first.stdout)
        try after.write(to: project.root.appendingPathComponent("Browser.m"), atomically: true, encoding: .utf8)
        let second = try project.run("report", "--format", "json", ".")
        XCTAssertEqual(second.status, 0, second.stderr)
        let total = try XCTUnwrap(second.json["total"] as? [String: Any], second.stdout)
        // `[tabs count]` in init, self.tabs, [self tabs], _tabs; not `_tabs = tabs`, the title,
        // nor the container's own reads
        XCTAssertEqual(total["injected"] as? Int, 4, second.stdout)
        XCTAssertEqual(total["direct"] as? Int, 1, second.stdout)
        let services = try XCTUnwrap(second.json["services"] as? [[String: Any]])
        let tabs = try XCTUnwrap(services.first { $0["name"] as? String == "tabs" }, second.stdout)
        XCTAssertEqual(tabs["injected"] as? Int, 4)
        XCTAssertEqual(tabs["direct"] as? Int, 0)
        let files = try XCTUnwrap(second.json["files"] as? [[String: Any]])
        XCTAssertEqual(files.first { $0["name"] as? String == "Browser.m" }?["injected"] as? Int, 4, second.stdout)
        XCTAssertNil(files.first { $0["name"] as? String == "Container.m" }, second.stdout)
    }

    /// `--history`: a service the container vended at an earlier commit keeps counting where it is
    /// injected after the container drops it (the last step of a service's migration).
    func testHistoryKeepsCountingAServiceTheContainerDropped() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": Self.config, "Container.swift": Self.container, "Browser.swift": Self.before,
                "AppDelegate.swift": Self.root,
            ])
        try project.commitEverything()
        func commit(_ path: String, _ text: String, _ message: String) throws {
            try text.write(to: project.root.appendingPathComponent(path), atomically: true, encoding: .utf8)
            try project.git("add", "-A")
            try project.git("commit", "-qm", message)
        }
        let finished = Self.after.replacingOccurrences(of: " = Container.shared.tabs", with: "")
        try commit("Browser.swift", finished, "inject tabs")
        let noTabs = Self.container.replacingOccurrences(of: "    let tabs: TabStore = TabStore()\n", with: "")
            .replacingOccurrences(of: "tabs.count()", with: "0")
        try commit("Container.swift", noTabs, "the container drops tabs")
        let run = try CLIRunner.run(
            ["report", "--history", "HEAD", "Browser.swift", "Container.swift"],
            in: project.root, environment: ["XDG_CACHE_HOME": project.root.appendingPathComponent("home").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = run.stdout.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        // direct, fallback, injected at each commit
        XCTAssertEqual(
            rows.map { Array($0[2...4]) }, [["3", "0", "0"], ["1", "0", "4"], ["1", "0", "4"]], run.stdout)
        // the report of the last commit alone no longer knows TabStore for a service
        let alone = try project.run("report", "--format", "json", "Browser.swift", "Container.swift")
        let total = try XCTUnwrap(alone.json["total"] as? [String: Any], alone.stdout)
        XCTAssertEqual(total["injected"] as? Int, 0, alone.stdout)
    }
}
