// C++ static accessors, resolved and unresolved.
#include <missing/header.hpp>

namespace legacy {
class Container {
public:
    static Container &shared();
    int &crashReporter();
};
}

using Alias = legacy::Container;

void resolved() {
    auto &c = legacy::Container::shared();                         // expect: container-access@15 Container.shared
    int r = Alias::shared().crashReporter();                        // expect: container-access@13 Container.shared.crashReporter
}

void unresolved() {
    auto x = Container::shared().notificationCenter();              // expect: container-access@14 Container.shared.notificationCenter
    auto y = Container::shared()->dateProvider;                     // expect: container-access@14 Container.shared.dateProvider
    auto z = Other::shared();
    auto w = Container::sharedForTests();
}
