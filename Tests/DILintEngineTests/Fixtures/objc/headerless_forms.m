// Headers are missing, so none of these names resolve: the token stream finds the accesses.
#import <Foundation/Foundation.h>
#import <UIKit/UIKit.h>
#import "SentryCrash.h"

@implementation SentryCrash

- (BOOL)install {
    id a = [Container sharedInstance];                       // expect: container-access@12 Container.sharedInstance
    id b = [[Container sharedInstance] crashReporter];       // expect: container-access@13 Container.sharedInstance.crashReporter
    id c = Container.sharedInstance.notificationCenter;      // expect: container-access@12 Container.sharedInstance.notificationCenter
    id d = [Container sharedInstance].dateProvider;          // expect: container-access@12 Container.sharedInstance.dateProvider
    [[Container sharedInstance] setCrashReporter:nil];       // expect: container-access@6 Container.sharedInstance.setCrashReporter
    id e = [Container.sharedInstance crashReporter];         // expect: container-access@13 Container.sharedInstance.crashReporter
    id f = SentryDependencyContainer.sharedInstance.crashReporter; // expect: container-access@12 SentryDependencyContainer.sharedInstance.crashReporter
    [self use:[Container sharedInstance] and:Container.sharedInstance]; // expect: container-access@15 Container.sharedInstance; container-access@46 Container.sharedInstance
    id g = (Container.sharedInstance).crashReporter;         // expect: container-access@13 Container.sharedInstance
    return a && b && c && d && e && f && g;
}

- (void)lookAlikes {
    id a = [OtherContainer sharedInstance];
    id b = [Container sharedInstanceForTests];
    id c = self.Container.sharedInstance;
    id d = [Container shared2];
    id e = [container sharedInstance];
    SEL s = @selector(sharedInstance);
}

@end
