/// What a key may do: each route of the API declares the scope it needs
/// (``ServerRoute/scope``), and a key's entry in the keys file lists the scopes it has.
public enum AuthScope: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `POST /v1/sessions/{id}/ops`.
    case ingest
    /// `GET /v1/sessions/{id}/snapshot`.
    case read
    /// `DELETE /v1/sessions/{id}`.
    case delete
    /// `GET /metrics`.
    case metrics

    public var description: String { rawValue }
}
