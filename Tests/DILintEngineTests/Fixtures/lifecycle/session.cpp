// C++: constructors that reach the container, and a bridge object constructed at load.
struct LcServices { long now(); };
LcServices &container_shared();

class LcCrashBridge {
public:
    explicit LcCrashBridge(int version);
};

static LcCrashBridge g_crash_bridge(2);                                     // expect: bridge-singleton@22

class LcSessionHandler {
    long started_;
    long (*clock_)();
public:
    LcSessionHandler() : started_(container_shared().now()) {               // expect: container-access@35 container_shared()->now; container-access-in-initializer@35
        auto later = [] { return container_shared().now(); };               // expect: container-access@34 container_shared()->now
    }
    explicit LcSessionHandler(long started) : started_(started) {}
    void tick() { started_ = container_shared().now(); }                    // expect: container-access@30 container_shared()->now
};
