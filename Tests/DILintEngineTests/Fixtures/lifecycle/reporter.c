// C bridge lifecycle: setters named *_set_bridge, installs named *_install; an injected module
// static is fine, a static that creates its own bridge is a singleton.
struct lc_bridge;
struct lc_reporter;
struct lc_bridge *lc_bridge_create(void);
int lc_reporter_install(struct lc_reporter *reporter, char *error);
void lc_reporter_uninstall(struct lc_reporter *reporter);
void lc_reporter_set_bridge(struct lc_reporter *reporter, struct lc_bridge *bridge);

static struct lc_bridge *g_injected_bridge;
static struct lc_bridge *g_own_bridge;

void lc_monitor_set_bridge(struct lc_bridge *bridge) { g_injected_bridge = bridge; }

struct lc_bridge *lc_shared_bridge(void) {
    if (!g_own_bridge) g_own_bridge = lc_bridge_create();                  // expect: bridge-singleton@24
    return g_own_bridge;
}

void lc_start(struct lc_reporter *reporter, struct lc_bridge *bridge) {
    lc_reporter_set_bridge(reporter, bridge);
    lc_reporter_install(reporter, 0);
}

void lc_start_late(struct lc_reporter *reporter, struct lc_bridge *bridge) {
    lc_reporter_install(reporter, 0);
    lc_reporter_set_bridge(reporter, bridge);                               // expect: bridge-injected-after-install@5
}
