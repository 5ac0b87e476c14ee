// swift-tools-version:6.0
import PackageDescription
import Foundation

// libclang location. Debian/Ubuntu ship libclang-dev's headers and libclang.so under
// /usr/lib/llvm-N/, which is on no default search path, so the manifest locates it:
// $LIBCLANG_PREFIX wins (a directory holding include/clang-c/Index.h and lib/libclang.so),
// else the newest /usr/lib/llvm-N that has the headers, else /usr/local and /usr.
// libclang is not linked: CLibClang opens it at run time (from the prefix's lib/, or
// $DI_LINT_LIBCLANG) on first use, so runs that parse nothing do not pay for loading it.
// Only the linter's targets get these flags: the crash library products carry none.
func locateLibClang() -> String? {
    let fm = FileManager.default
    func usable(_ prefix: String) -> Bool {
        fm.fileExists(atPath: prefix + "/include/clang-c/Index.h")
    }
    if let env = ProcessInfo.processInfo.environment["LIBCLANG_PREFIX"], !env.isEmpty {
        return env
    }
    let llvmDirs = ((try? fm.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
        .filter { $0.hasPrefix("llvm-") }
        .sorted { (Int($0.dropFirst(5)) ?? 0) > (Int($1.dropFirst(5)) ?? 0) }
        .map { "/usr/lib/" + $0 }
    return (llvmDirs + ["/usr/local", "/usr"]).first(where: usable)
}

let libclangPrefix = locateLibClang()
let libclangSwiftFlags: [SwiftSetting] =
    libclangPrefix.map {
        [.unsafeFlags(["-Xcc", "-I\($0)/include"])]
    } ?? []
let libclangCSettings: [CSetting] =
    libclangPrefix.map {
        [.unsafeFlags(["-I\($0)/include"]), .define("SEAM_LIBCLANG_DIR", to: "\"\($0)/lib\"")]
    } ?? []

let package = Package(
    name: "Seam",
    products: [
        .executable(name: "di-lint", targets: ["di-lint"]),
        .library(name: "DILintEngine", targets: ["DILintEngine"]),
        .library(name: "SeamCrash", targets: ["CrashIntegration"]),
        .executable(name: "crash-demo", targets: ["CrashDemo"]),
        // `swift package di-lint`: runs the di-lint on PATH in a package that depends on Seam
        .plugin(name: "DILintPlugin", targets: ["DILintPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        // MARK: di-lint
        .plugin(
            name: "DILintPlugin",
            capability: .command(
                intent: .custom(verb: "di-lint", description: "Lint the package with the di-lint on PATH")),
            path: "Plugins/DILintPlugin"
        ),
        // libclang's API with lazy loading (headers from apt's libclang-dev).
        .target(
            name: "CLibClang",
            cSettings: libclangCSettings,
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]
        ),
        // A rule file of Rules/ read with Yams: by the engine at run time and by rule-catalog.
        .target(
            name: "RuleFiles",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        // The rule registry, embedded rule files and README table, from Rules/ (scripts/generate-rule-catalog).
        .executableTarget(
            name: "rule-catalog",
            dependencies: ["RuleFiles"]
        ),
        .target(
            name: "DILintEngine",
            dependencies: [
                "CLibClang",
                "RuleFiles",
                .product(name: "Yams", package: "Yams"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: libclangSwiftFlags
        ),
        .executableTarget(
            name: "di-lint",
            dependencies: ["DILintEngine", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: libclangSwiftFlags
        ),
        .testTarget(
            name: "DILintEngineTests",
            dependencies: ["DILintEngine", "SeamTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: libclangSwiftFlags
        ),
        .testTarget(
            name: "DILintCLITests",
            dependencies: ["di-lint", "SeamTestSupport"],
            swiftSettings: libclangSwiftFlags
        ),

        // MARK: crash-integration library
        .target(
            name: "CrashRuntime",
            linkerSettings: [.linkedLibrary("stdc++")]
        ),
        .target(
            name: "CrashIntegration",
            dependencies: ["CrashRuntime"]
        ),
        .executableTarget(
            name: "CrashDemo",
            dependencies: [
                "CrashIntegration", "CrashDemoSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/CrashDemo",
            exclude: ["README.md"]
        ),
        // crash-demo's crash triggers that need C/C++ (integer division, a C++ throw).
        .target(
            name: "CrashDemoSupport",
            path: "Examples/CrashDemoSupport",
            cSettings: [.unsafeFlags(["-fno-omit-frame-pointer"])],
            cxxSettings: [.unsafeFlags(["-fno-omit-frame-pointer"])]
        ),
        // Test-only: a child process that installs capture directly and crashes on command.
        .target(
            name: "CrashProbeSupport",
            dependencies: ["CrashRuntime"],
            path: "Tests/CrashProbe/Support"
        ),
        .executableTarget(
            name: "CrashProbe",
            dependencies: ["CrashProbeSupport", "CrashRuntime"],
            path: "Tests/CrashProbe/Main"
        ),
        .testTarget(
            name: "CrashIntegrationTests",
            dependencies: ["CrashIntegration", "CrashRuntime", "UploadProbe", "SeamTestSupport"]
        ),
        // Test-only: the loopback HTTP server and the temporary lint project shared by test targets.
        .target(
            name: "SeamTestSupport",
            path: "Tests/SeamTestSupport"
        ),
        // Test-only: one upload pass in its own process (killed mid-upload, raced by tests).
        .executableTarget(
            name: "UploadProbe",
            dependencies: ["CrashIntegration"],
            path: "Tests/UploadProbe"
        ),
        // scripts/bench-capture's measuring program, built with the package so it always compiles.
        .executableTarget(
            name: "BenchCapture",
            dependencies: ["CrashIntegration", "CrashRuntime"],
            path: "scripts/bench-capture.d"
        ),
        .testTarget(
            name: "CrashDemoTests",
            dependencies: ["CrashIntegration", "CrashDemo", "SeamTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v5],
    cLanguageStandard: .gnu11,
    cxxLanguageStandard: .cxx17
)
