// Swift forms: module-qualified, generic, typealiased and `Self` types; globals; property
// wrappers (the declared type is the service); generic `resolve()` named by the type the code
// writes; constant `#if` blocks left out as on the C side.
import MyModule

typealias C = Container

final class AppContainer {
    static let shared = AppContainer()
    static var current: AppContainer { Self.shared }                  // expect: container-access@40 AppContainer.shared
    func resolve<T>(_ type: T.Type = T.self) -> T { fatalError() }
}

func typeForms() {
    _ = MyModule.Container.shared.crashReporter                       // expect: container-access@9 Container.shared.crashReporter
    _ = Container<Foo>.shared.dateProvider                            // expect: container-access@9 Container.shared.dateProvider
    _ = C.shared.notificationCenter                                   // expect: container-access@9 Container.shared.notificationCenter
    _ = gContainer.uploader                                           // expect: container-access@9 gContainer.uploader
    _ = DependencyContainerSwiftHelper.self
    _ = DependencyContainerSwiftHelper.fileManager()                  // expect: container-access@9 DependencyContainerSwiftHelper.fileManager
    _ = ScreenHelper.screen                                           // expect: container-access@9 ScreenHelper.screen
    _ = ScreenHelper.scale
    _ = Environment.hasEnabledOption(.verbose)                        // expect: container-access@9 Environment.hasEnabledOption
}

func resolved() {
    let tabs: TabManager = AppContainer.shared.resolve()              // expect: container-access@28 AppContainer.shared.TabManager
    let maybe: TabManager? = AppContainer.shared.resolve()            // expect: container-access@30 AppContainer.shared.TabManager
    let cast = AppContainer.shared.resolve() as ThemeManager          // expect: container-access@16 AppContainer.shared.ThemeManager
    let profile = AppContainer.shared.resolve(Profile.self)           // expect: container-access@19 AppContainer.shared.Profile
    let unknown = AppContainer.shared.resolve()                       // expect: container-access@19 AppContainer.shared.resolve
    let theme = AppContainer.shared.resolve<Theme>()                  // expect: container-access@17 AppContainer.shared.Theme
    _ = (tabs, maybe, cast, profile, unknown, theme)
}

final class BrowserViewController {
    @Injected var tabManager: TabManager                              // expect: container-access@5 @Injected.TabManager
    @Injected(\.theme) var theme: ThemeManager?                       // expect: container-access@5 @Injected.ThemeManager
    @Published var title: String = ""
}

#if false
let dead = Container.shared.crashReporter
#elseif DEBUG
let debug = Container.shared.debugMenu                                // expect: container-access@13 Container.shared.debugMenu
#else
let release = Container.shared.releaseMenu                            // expect: container-access@15 Container.shared.releaseMenu
#endif

#if true
let live = Container.shared.liveMenu                                  // expect: container-access@12 Container.shared.liveMenu
#else
let deadToo = Container.shared.crashReporter
#endif

// The accessors' own implementations are not accesses; other members of the type reading them are.
enum Settings {
    static var theme: Theme { Settings.theme(for: .current) }
    static func theme(for user: User) -> Theme { Theme() }
    static var store: Store { Settings.theme.store }                  // expect: container-access@31 Settings.theme.store
}
