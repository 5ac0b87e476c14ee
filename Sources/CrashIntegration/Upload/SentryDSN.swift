import Foundation

/// A Sentry DSN, `{scheme}://{public_key}[:{secret_key}]@{host}[:{port}][/{path}]/{project_id}`:
/// where envelopes go and how requests authenticate.
public struct SentryDSN: Sendable, Equatable, CustomStringConvertible {
    public let publicKey: String
    public let secretKey: String?
    public let projectID: String
    /// The DSN as given.
    public let description: String
    /// `{scheme}://{host}[:{port}][/{path}]/api/{project_id}/envelope/`.
    public let envelopeURL: URL

    /// Parses `dsn`; throws `SentryDSNError` naming what is wrong.
    public init(_ dsn: String) throws {
        guard let components = URLComponents(string: dsn), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            throw SentryDSNError(dsn: dsn, problem: "not an http(s) URL")
        }
        guard let key = components.user, !key.isEmpty else {
            throw SentryDSNError(dsn: dsn, problem: "no public key before the host (https://KEY@host/PROJECT)")
        }
        guard let host = components.host, !host.isEmpty else { throw SentryDSNError(dsn: dsn, problem: "no host") }
        var path = components.path.split(separator: "/").map(String.init)
        guard let project = path.popLast(), !project.isEmpty else {
            throw SentryDSNError(dsn: dsn, problem: "no project id at the end of the path")
        }
        var endpoint = URLComponents()
        endpoint.scheme = scheme
        endpoint.host = host
        endpoint.port = components.port
        endpoint.path = "/" + (path + ["api", project, "envelope"]).joined(separator: "/") + "/"
        guard let url = endpoint.url else { throw SentryDSNError(dsn: dsn, problem: "cannot form the envelope URL") }
        publicKey = key
        secretKey = components.password.flatMap { $0.isEmpty ? nil : $0 }
        projectID = project
        description = dsn
        envelopeURL = url
    }

    /// The `X-Sentry-Auth` header value.
    func authHeader(client: String) -> String {
        var parts = ["sentry_version=7", "sentry_client=\(client)", "sentry_key=\(publicKey)"]
        if let secretKey { parts.append("sentry_secret=\(secretKey)") }
        return "Sentry " + parts.joined(separator: ", ")
    }
}

/// A DSN that cannot be used, and why.
public struct SentryDSNError: Error, Equatable, CustomStringConvertible {
    public let dsn: String
    public let problem: String
    public var description: String { "Sentry DSN \"\(dsn)\": \(problem)" }
}
