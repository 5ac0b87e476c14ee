void suppressed(void) {
    // di-lint:disable-next-line container-access -- composition root builds the bridge here
    id a = [Container sharedInstance];
    id b = [Container sharedInstance]; // di-lint:disable-line container-access -- legacy test helper

    // di-lint:disable container-access -- module migrated in phase 4
    id c = [Container sharedInstance];
    id d = Container.sharedInstance.crashReporter;
    // di-lint:enable container-access
    id e = [Container sharedInstance];                                      // expect: container-access@12 Container.sharedInstance
}

void problems(void) {
    // di-lint:disable-next-line container-access                           // expect: suppression-without-reason@5
    id a = [Container sharedInstance];
    // di-lint:disable-next-line container-access -- nothing to suppress    // expect: unused-suppression@5
    id b = nil;
    // di-lint:disable-next-line container-acess -- misspelled              // expect: unused-suppression@5
    id c = [Container sharedInstance];                                      // expect: container-access@12 Container.sharedInstance
    // di-lint:enable container-access                                      // expect: unused-suppression@5
    // di-lint:disabel container-access -- typo in the verb                 // expect: unused-suppression@5
    // di-lint:disable-next-line all -- every rule, with a reason
    id d = [Container sharedInstance];
}
