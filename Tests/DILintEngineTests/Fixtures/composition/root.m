// Accesses inside the composition root are allowed; the same access elsewhere is not.
@interface CrashIntegration
@end
@interface Other
@end

@implementation CrashIntegration
- (instancetype)init {
    id center = [[Container sharedInstance] notificationCenter];
    return self;
}
@end

@implementation Other
- (void)run {
    id center = [[Container sharedInstance] notificationCenter];   // expect: container-access@18 Container.sharedInstance.notificationCenter
}
@end

id makeBridge(void) {
    return [[Container sharedInstance] crashReporter];
}

void seam_crash_bootstrap(void) {
    container_shared()->install();
}

void seam_crash_install(void) {
    container_shared()->install();                                  // expect: container-access@5 container_shared()->install
}
