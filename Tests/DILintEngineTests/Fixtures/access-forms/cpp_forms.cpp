// C++ forms: template accessors (the template argument is the service), namespace-qualified
// accessors, global pointers; the accessors' own out-of-line definitions are not accesses.
namespace MWBase {
class Environment {
public:
    static Environment &get();
    int &world();
};
}

class ComponentManager {};
class ServiceLocator {
public:
    template <typename T> static T *getService();
};

class BrowserProcess {
public:
    int *profile_manager();
};
extern BrowserProcess *g_browser_process;

MWBase::Environment &MWBase::Environment::get() {
    static Environment instance;
    return instance;
}

template <typename T> T *ServiceLocator::getService() {
    return nullptr;
}

void resolved() {
    int &w = MWBase::Environment::get().world();                  // expect: container-access@14 Environment.get.world
    auto *m = ServiceLocator::getService<ComponentManager>();      // expect: container-access@15 ServiceLocator.getService.ComponentManager
    int *p = g_browser_process->profile_manager();                 // expect: container-access@14 g_browser_process.profile_manager
}

void unresolved() {
    auto &x = Environment::get().mechanics();                      // expect: container-access@15 Environment.get.mechanics
    auto *q = ServiceLocator::getService<Missing::Thing>();        // expect: container-access@15 ServiceLocator.getService.Missing::Thing
    auto *r = Unknown::getService<Thing>();
    auto *s = other->g_browser_process;
}
