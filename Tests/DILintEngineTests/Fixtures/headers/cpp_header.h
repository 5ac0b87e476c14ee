// A .h with C++ constructs is parsed as C++.
#pragma once
namespace app {
class Thing {
public:
    int reporter() { return Container::shared().crashReporter(); } // expect: container-access@29 Container.shared.crashReporter
};
}
