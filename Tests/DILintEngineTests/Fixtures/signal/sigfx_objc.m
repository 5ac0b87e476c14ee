// Objective-C reached from the C handler: message sends and the bridge are crash-time violations.
#include "sigfx_report.h"

@interface SigfxReporter
+ (instancetype)current;
@property (nonatomic, strong) id bridge;
- (void)flush;
@end

void sigfx_flush_objc(void) {
    [[SigfxReporter current] flush];                  // expect: signal-handler-safety@5
}

@implementation SigfxReporter
- (void)install {
    id bridge = self.bridge;                           // install time: allowed
    (void)bridge;
}
@end
