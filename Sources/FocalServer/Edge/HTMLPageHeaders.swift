import Crypto
import FoundationEssentials
import HTTPTypes
import Hummingbird

/// The headers of the HTML snapshot page (`GET /v1/sessions/{id}/snapshot?format=html`):
/// the page may not be framed (clickjacking), sniffed as another type, or load anything
/// from elsewhere. Its own inline `<script>` and `<style>` are allowed by their SHA-256
/// hash (the page is one self-contained file; every value from the session in it is
/// escaped), nothing else: no other script, source, connection, form target or base URL.
enum HTMLPageHeaders {
    /// The headers for `page`, whose inline script and style elements are hashed.
    static func fields(for page: String) -> HTTPFields {
        let scripts = hashSources(of: "script", in: page)
        let styles = hashSources(of: "style", in: page)
        let policy =
            "default-src 'none'; script-src \(scripts.isEmpty ? "'none'" : scripts); "
            + "style-src \(styles.isEmpty ? "'none'" : styles); img-src data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return [
            HTTPField.Name("Content-Security-Policy")!: policy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("X-Frame-Options")!: "DENY",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
    }

    /// `'sha256-…'` of the text of every `<element>` of `page`, space-separated.
    static func hashSources(of element: String, in page: String) -> String {
        var sources: [String] = []
        var rest = page[...]
        while let open = rest.range(of: "<\(element)>"), let close = rest[open.upperBound...].range(of: "</\(element)>") {
            let digest = SHA256.hash(data: Array(rest[open.upperBound..<close.lowerBound].utf8))
            sources.append("'sha256-\(Data(digest).base64EncodedString())'")
            rest = rest[close.upperBound...]
        }
        return sources.joined(separator: " ")
    }
}
