@_exported import CrashRuntime
