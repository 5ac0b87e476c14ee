// An ambient property's name declared nearer hides it, as Swift's name lookup does: a type's own
// property (the injected state a migration ends in), a parameter, a local, a closure parameter, an
// `if let`/`guard let` binding. Those references are not container accesses.
final class InjectedController: UIViewController {
    private let databaseStorage: SDSDatabaseStorage

    init(databaseStorage: SDSDatabaseStorage) {
        self.databaseStorage = databaseStorage
        super.init(nibName: nil, bundle: nil)
    }

    func load() {
        databaseStorage.read { _ in }
        self.databaseStorage.write { _ in }
    }
}

final class AmbientController: UIViewController {
    func load(databaseStorage: SDSDatabaseStorage?) {
        databaseStorage?.read { _ in }
        if let databaseStorage { databaseStorage.read { _ in } }
        self.databaseStorage.write { _ in }                                                  // expect: container-access@9 ambient.databaseStorage
    }

    func local() {
        self.databaseStorage.write { _ in }                                                  // expect: container-access@9 ambient.databaseStorage
        let databaseStorage = Self.makeStorage()
        databaseStorage.read { _ in }
        run { databaseStorage in databaseStorage.read { _ in } }
    }

    func guarded(_ other: AnyObject) {
        guard let databaseStorage = other as? SDSDatabaseStorage else { return }
        databaseStorage.read { _ in }
    }

    func ambient() {
        databaseStorage.read { _ in }                                                        // expect: container-access@9 ambient.databaseStorage
        run { _ in self.databaseStorage.read { _ in } }                                      // expect: container-access@20 ambient.databaseStorage
    }
}

// The type's own member declared in its body is found from its extensions in the file, and an
// outer type's static member from a nested type.
extension InjectedController {
    func reload() {
        databaseStorage.read { _ in }
        self.databaseStorage.write { _ in }
    }
}

enum KeyBackup {
    static var databaseStorage: SDSDatabaseStorage { .shared }

    struct Token {
        func record() { databaseStorage.write { _ in } }
    }
}

extension AmbientController {
    func reload() {
        databaseStorage.read { _ in }                                                        // expect: container-access@9 ambient.databaseStorage
    }
}
