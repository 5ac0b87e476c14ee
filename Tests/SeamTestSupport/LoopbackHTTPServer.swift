import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small real HTTP/1.1 server on 127.0.0.1 (ephemeral port) for upload tests: one thread
/// per connection, `Connection: close` answers, every complete request recorded. The responder
/// decides each answer, or stalls (holds the connection unanswered until `stop()`).
/// Shared by the test targets (`SeamTestSupport`).
public final class LoopbackHTTPServer: @unchecked Sendable {
    public struct Request {
        public let method: String
        public let path: String
        /// Header names lower-cased.
        public let headers: [String: String]
        public let body: Data
        public var reportID: String? { headers["x-seam-report-id"] }
    }

    public enum Reply {
        case status(Int, body: String = "")
        /// A status with extra response headers, e.g. `Retry-After`.
        case statusWithHeaders(Int, headers: [String: String], body: String = "")
        case stall
    }

    /// Gets each request and its 0-based arrival index.
    public typealias Responder = @Sendable (Request, Int) -> Reply

    public let port: UInt16
    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/crash-reports")! }

    private let listener: Int32
    private let lock = NSCondition()
    private var responder: Responder
    private var received: [Request] = []
    private var connections: Set<Int32> = []
    private var stopped = false

    public init(responder: @escaping Responder) throws {
        self.responder = responder
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError("bind/listen on 127.0.0.1: \(reason)")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Requests received so far, in arrival order.
    public var requests: [Request] {
        lock.lock(); defer { lock.unlock() }
        return received
    }

    public func setResponder(_ newResponder: @escaping Responder) {
        lock.lock(); defer { lock.unlock() }
        responder = newResponder
    }

    /// Waits until at least `count` requests arrived; false on timeout.
    public func waitForRequests(_ count: Int, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while received.count < count {
            if !lock.wait(until: deadline) { return received.count >= count }
        }
        return true
    }

    /// Stops accepting, drops every open connection and releases stalled ones.
    public func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        let open = connections
        lock.broadcast()
        lock.unlock()
        guard !wasStopped else { return }
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            lock.lock()
            connections.insert(fd)
            lock.unlock()
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.lock()
            connections.remove(fd)
            lock.unlock()
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        lock.lock()
        let index = received.count
        received.append(request)
        let respond = responder
        lock.broadcast()
        lock.unlock()

        switch respond(request, index) {
        case .stall:
            lock.lock()
            while !stopped { lock.wait() }
            lock.unlock()
        case .status(let code, let body):
            answer(fd, code, headers: [:], body: body)
        case .statusWithHeaders(let code, let headers, let body):
            answer(fd, code, headers: headers, body: body)
        }
    }

    private func answer(_ fd: Int32, _ code: Int, headers: [String: String], body: String) {
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        let head =
            "HTTP/1.1 \(code) Status\r\nContent-Type: text/plain\r\n\(extra)"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        writeAll(fd, Data((head + body).utf8))
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard let chunk = readSome(fd) else { return nil }
            buffer.append(chunk)
        }
        let headEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var body = Data(buffer[headEnd.upperBound...])
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            writeAll(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < length {
            guard let chunk = readSome(fd) else { return nil }
            body.append(chunk)
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }

    private func readSome(_ fd: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(fd, &bytes, bytes.count, 0)
        return count > 0 ? Data(bytes[0..<count]) : nil
    }

    private func writeAll(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(fd, raw.baseAddress! + offset, raw.count - offset, noSignal)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

#if os(Linux)
private let noSignal = Int32(MSG_NOSIGNAL)
#else
private let noSignal: Int32 = 0
#endif

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
