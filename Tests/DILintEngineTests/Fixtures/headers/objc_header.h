// A .h with Objective-C constructs is parsed as Objective-C.
#import <Foundation/Foundation.h>

@interface Wrapper : NSObject
@end

static inline id currentReporter(void) {
    return [[Container sharedInstance] crashReporter];             // expect: container-access@13 Container.sharedInstance.crashReporter
}
