// Ambient dependencies: an extension on a base class exposes a container service as a property;
// the getter is the container access, and each use of the property on `self` is one too.
extension NSObject {
    var databaseStorage: SDSDatabaseStorage { SSKEnvironment.shared.databaseStorageRef }   // expect: container-access@47 SSKEnvironment.shared.databaseStorageRef
}

final class ThreadViewController: UIViewController {
    func load() {
        databaseStorage.read { _ in }                                                        // expect: container-access@9 ambient.databaseStorage
        self.databaseStorage.write { _ in }                                                  // expect: container-access@9 ambient.databaseStorage
        let other = message.databaseStorage
        _ = other
    }
}
