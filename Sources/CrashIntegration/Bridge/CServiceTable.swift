import CrashRuntime
import Foundation

/// What the C layer's table serves, as Swift. The bridge and the legacy container both conform,
/// so one set of C entry points serves both. A service the C table can serve straight from its
/// provider (`CrashBridgeServices`) needs no requirement here, only its line in the table; the
/// members below hold C forms (C strings that live as long as their owner, the terminate slot).
protocol CrashCServices: AnyObject, CrashBridgeServices {
    var cAnnotations: CStringPairs { get }
    var cSystemInfo: CStringPairs { get }
    var cDumpDirectory: CString { get }
    func setTerminateHandler(_ handler: TerminateHandler?)
}

private func services(_ context: UnsafeMutableRawPointer?) -> CrashCServices {
    Unmanaged<AnyObject>.fromOpaque(context!).takeUnretainedValue() as! CrashCServices
}

extension CrashCServices {
    /// The C table over `context`, which must point at `self` and stay alive while C uses it:
    /// one closure per service of `SEAM_BRIDGE_SERVICES` (seam_crash_runtime.h), in its order.
    func makeCServiceTable(context: UnsafeMutableRawPointer) -> seam_crash_bridge {
        seam_crash_bridge(
            context: context,
            now: { services($0).dateProvider.date().timeIntervalSince1970 },
            add_observer: { context, name, callback, observer in
                let token = services(context).notificationCenter.addObserver(
                    forName: Notification.Name(String(cString: name!))
                ) { _ in callback?(observer) }
                return Unmanaged.passRetained(token as AnyObject).toOpaque()
            },
            remove_observer: { context, token in
                guard let token else { return }
                let observer = Unmanaged<AnyObject>.fromOpaque(token).takeRetainedValue()
                services(context).notificationCenter.removeObserver(observer as! NSObjectProtocol)
            },
            post_notification: { context, name in
                services(context).notificationCenter.post(name: Notification.Name(String(cString: name!)))
            },
            annotations: { services($0).cAnnotations.pairs },
            system_info: { services($0).cSystemInfo.pairs },
            dump_directory: { UnsafePointer(services($0).cDumpDirectory.pointer) },
            set_terminate_handler: { services($0).setTerminateHandler($1) })
    }
}

/// A C string owned by Swift, freed with its owner.
final class CString {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ string: String) {
        pointer = strdup(string)!
    }

    deinit { free(pointer) }
}

/// Key/value pairs as stable C arrays (sorted by key), freed with their owner.
final class CStringPairs {
    private let strings: [CString]
    private let keys: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private let values: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let count: Int

    init(_ dictionary: [String: String]) {
        let sorted = dictionary.sorted { $0.key < $1.key }
        count = sorted.count
        strings = sorted.flatMap { [CString($0.key), CString($0.value)] }
        keys = .allocate(capacity: max(count, 1))
        values = .allocate(capacity: max(count, 1))
        for index in 0..<count {
            keys[index] = UnsafePointer(strings[2 * index].pointer)
            values[index] = UnsafePointer(strings[2 * index + 1].pointer)
        }
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    var pairs: seam_string_pairs {
        seam_string_pairs(keys: keys, values: values, count: count)
    }
}
