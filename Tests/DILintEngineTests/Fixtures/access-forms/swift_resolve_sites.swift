// Where a generic `resolve()` gets its type in injection-by-default code: a parameter's default
// value (the parameter's type, `any`/`some` dropped), a getter's or function's `return` and its
// single-expression body (the declared result type), an assignment to a stored property the type
// declares with a type. Passed as an argument, the type is the callee's: the service stays `resolve`.

final class ThemedView {                                                // expect: swift-mixed-injection@13
    var themeManager: ThemeManager
    let store: DiskImageStore?

    init(themeManager: ThemeManager = AppContainer.shared.resolve(),   // a fallback (ThemeManager): the transition form
         windows: any WindowManager = AppContainer.shared.resolve(),    // a fallback (WindowManager): the transition form
         store: DiskImageStore? = AppContainer.shared.resolve()) {     // a fallback (DiskImageStore): the transition form
        self.themeManager = themeManager
        self.store = store
    }

    var windowManager: WindowManager {
        return AppContainer.shared.resolve()                            // expect: container-access@16 AppContainer.shared.WindowManager
    }

    var profile: Profile { AppContainer.shared.resolve() }             // expect: container-access@28 AppContainer.shared.Profile

    func engine() -> EngineProvider { AppContainer.shared.resolve() }  // expect: container-access@39 AppContainer.shared.EngineProvider

    func reload() {
        themeManager = AppContainer.shared.resolve()                    // expect: container-access@24 AppContainer.shared.ThemeManager
        self.themeManager = AppContainer.shared.resolve()               // expect: container-access@29 AppContainer.shared.ThemeManager
        use(AppContainer.shared.resolve())                              // expect: container-access@13 AppContainer.shared.resolve
        let local = { () -> Profile in AppContainer.shared.resolve() }  // expect: container-access@40 AppContainer.shared.Profile
        _ = local
    }

    func use(_ manager: ThemeManager) {}
}
