// Every fallback form, headerless; and the look-alikes that stay direct.
#import "SentryCrash.h"

@implementation SentryCrash

- (void)ternaries {
    id a = self.bridge ? self.bridge.notificationCenterWrapper : SentryDependencyContainer.sharedInstance.notificationCenterWrapper; // expect: container-fallback@66 SentryDependencyContainer.sharedInstance.notificationCenterWrapper
    id b = self.bridge ?: [Container sharedInstance];                        // expect: container-fallback@27 Container.sharedInstance
    id c = (self.bridge != nil) ? [self.bridge dateProvider] : Container.sharedInstance.dateProvider; // expect: container-fallback@64 Container.sharedInstance.dateProvider
    id d = !self.bridge ? Container.sharedInstance.dateProvider : self.bridge.dateProvider;           // expect: container-fallback@27 Container.sharedInstance.dateProvider
    id e = _bridge == nil ? [[Container sharedInstance] crashReporter] : [_bridge crashReporter];   // expect: container-fallback@30 Container.sharedInstance.crashReporter
    id f = self.crashBridge ? self.crashBridge.crashReporter : Container.sharedInstance.crashReporter; // expect: container-fallback@64 Container.sharedInstance.crashReporter
    [center addObserver:self.bridge ? self.bridge.crashReporter : Container.sharedInstance.crashReporter]; // expect: container-fallback@67 Container.sharedInstance.crashReporter
}

- (void)lookAlikes {
    id a = self.other ? self.other.crashReporter : Container.sharedInstance.crashReporter;          // expect: container-access@52 Container.sharedInstance.crashReporter
    id b = self.bridge ? Container.sharedInstance.crashReporter : nil;                              // expect: container-access@26 Container.sharedInstance.crashReporter
    id c = (self.bridge && ready) ? self.bridge.crashReporter : Container.sharedInstance.crashReporter; // expect: container-access@65 Container.sharedInstance.crashReporter
    id d = self.bridgeFactory ? nil : Container.sharedInstance.crashReporter;                       // expect: container-access@39 Container.sharedInstance.crashReporter
    if (self.other) {
        id e = self.bridge.crashReporter;
    } else {
        id f = Container.sharedInstance.crashReporter;                                              // expect: container-access@16 Container.sharedInstance.crashReporter
    }
    if (self.bridge) {
        id g = [[Container sharedInstance] crashReporter];                                          // expect: container-access@17 Container.sharedInstance.crashReporter
    }
}

- (void)ifElse {
    id reporter = nil;
    if (self.bridge) {
        reporter = self.bridge.crashReporter;
    } else {
        reporter = [[Container sharedInstance] crashReporter];                                      // expect: container-fallback@21 Container.sharedInstance.crashReporter
        [reporter use:Container.sharedInstance.dateProvider];                                       // expect: container-fallback@23 Container.sharedInstance.dateProvider
    }
    if (self.bridge == nil) {
        reporter = [[Container sharedInstance] crashReporter];                                      // expect: container-fallback@21 Container.sharedInstance.crashReporter
    }
    if (self.bridge) reporter = self.bridge.crashReporter;
    else reporter = Container.sharedInstance.crashReporter;                                         // expect: container-fallback@21 Container.sharedInstance.crashReporter
    if (!self.bridge) reporter = Container.sharedInstance.crashReporter;                            // expect: container-fallback@34 Container.sharedInstance.crashReporter
    if (!self.bridge) {
        if (verbose) {
            log(Container.sharedInstance.crashReporter);                                            // expect: container-fallback@17 Container.sharedInstance.crashReporter
        }
    }
}

- (id)earlyReturns {
    if (!self.bridge) {
        return Container.sharedInstance.crashReporter;                                              // expect: container-fallback@16 Container.sharedInstance.crashReporter
    }
    return self.bridge.crashReporter;
}

- (id)earlyReturnPositive {
    if (self.bridge) {
        return self.bridge.crashReporter;
    }
    id fallback = Container.sharedInstance.crashReporter;                                           // expect: container-fallback@19 Container.sharedInstance.crashReporter
    return fallback;
}

- (id)notAnEarlyReturn {
    if (self.bridge) {
        log(self.bridge.crashReporter);
    }
    return Container.sharedInstance.crashReporter;                                                  // expect: container-access@12 Container.sharedInstance.crashReporter
}

@end
