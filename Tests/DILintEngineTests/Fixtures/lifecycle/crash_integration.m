// Objective-C bridge lifecycle (seed 000): the bridge is injected by a strong property before
// install; the wrong orders, weak holders and singletons are reported.
@interface NSObject
- (instancetype)init;
@end
@class SeamBridge;

@interface LcCrash : NSObject
@property (nonatomic, strong, nullable) SeamBridge *bridge;
- (instancetype)initWithBasePath:(id)basePath;
- (void)install;
- (void)uninstall;
@end

@interface LcInstallation : NSObject
@property (nonatomic, weak, nullable) SeamBridge *bridge;                  // expect: bridge-weak-reference@23
@property (nonatomic, weak) id delegate;
@end

@interface LcMonitor : NSObject {
    __unsafe_unretained SeamBridge *_bridge;                                // expect: bridge-weak-reference@5
}
@end

@implementation LcCrash
- (instancetype)initWithBasePath:(id)basePath {
    self = [super init];
    id reporter = [[Container sharedInstance] crashReporter];              // expect: container-access@20 Container.sharedInstance.crashReporter; container-access-in-initializer@20
    id later = ^{ return [Container sharedInstance]; };                     // expect: container-access@26 Container.sharedInstance
    return self;
}

- (void)install {
    id center = [self.bridge notificationCenter];
}
@end

@implementation LcIntegration
- (void)startRight:(SeamBridge *)bridge {
    LcCrash *crash = [[LcCrash alloc] initWithBasePath:@"/tmp"];
    crash.bridge = bridge;
    [crash install];
}

- (void)startWrong:(SeamBridge *)bridge {
    LcCrash *crash = [[LcCrash alloc] initWithBasePath:@"/tmp"];
    [crash install];
    crash.bridge = bridge;                                                  // expect: bridge-injected-after-install@5
    [crash setBridge:bridge];                                               // expect: bridge-injected-after-install@5
}

- (void)restart:(SeamBridge *)bridge {
    [self.crash install];
    [self.crash uninstall];
    self.crash.bridge = bridge;
    [self.crash install];
}
@end

@implementation SeamBridge
+ (instancetype)sharedBridge {
    static dispatch_once_t onceToken;
    static SeamBridge *shared;
    dispatch_once(&onceToken, ^{ shared = [[SeamBridge alloc] init]; });  // expect: bridge-singleton@34
    return shared;
}
@end
