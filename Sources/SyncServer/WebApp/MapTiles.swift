import Foundation

/// Raster tiles an operator offers the phone app (`serve --tiles URL_TEMPLATE
/// [--tiles-attribution TEXT]`): the app reads them from `/app/config.json`, and the app's
/// Content-Security-Policy admits the template's origin, and only it, for images and fetches
/// (Schemas/sync-api.yaml `/app/config.json`, Schemas/map.md "Raster tiles").
package struct MapTiles: Sendable, Equatable {
    /// Why a template or an attribution cannot be served; each is one sentence for the operator.
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAbsoluteHTTP(String)
        case missingPlaceholder(String, placeholder: String)
        case unsafeCharacter(String)
        case badAttribution

        package var description: String {
            switch self {
            case .notAbsoluteHTTP(let template):
                "--tiles '\(template)' is not an http:// or https:// URL with a host"
            case .missingPlaceholder(let template, let placeholder):
                "--tiles '\(template)' has no \(placeholder) (a template names {z}, {x} and {y})"
            case .unsafeCharacter(let template):
                "--tiles '\(template)' holds a space, a quote, a comma, a semicolon or a control character, which a URL template never needs"
            case .badAttribution:
                "--tiles-attribution must be 1 to \(MapTiles.maximumAttributionCharacters) characters without control characters"
            }
        }
    }

    static let maximumAttributionCharacters = 200
    static let placeholders = ["{z}", "{x}", "{y}"]

    /// The template as given, e.g. `https://tiles.example/{z}/{x}/{y}.png`.
    package let urlTemplate: String
    /// The credit the app shows beside the map while tiles are drawn.
    package let attribution: String
    /// `scheme://host[:port]` of the template: what the CSP admits.
    package let origin: String

    /// Checks the template (an absolute http(s) URL naming {z}, {x} and {y}, nothing that could
    /// end a CSP source or a header) and the attribution (default: the template's host).
    package init(urlTemplate: String, attribution: String? = nil) throws(Refusal) {
        if urlTemplate.unicodeScalars.contains(where: { $0.properties.isWhitespace || "\"';,\\<>".unicodeScalars.contains($0)
            || $0.properties.generalCategory == .control }) {
            throw .unsafeCharacter(urlTemplate)
        }
        for placeholder in Self.placeholders where !urlTemplate.contains(placeholder) {
            throw .missingPlaceholder(urlTemplate, placeholder: placeholder)
        }
        var probe = urlTemplate
        for placeholder in Self.placeholders { probe = probe.replacingOccurrences(of: placeholder, with: "0") }
        guard let components = URLComponents(string: probe), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil,
              !(components.host.map { $0.contains("{") || $0.contains("}") } ?? true)
        else { throw .notAbsoluteHTTP(urlTemplate) }
        let credit = attribution ?? host
        guard (1...Self.maximumAttributionCharacters).contains(credit.count),
              !credit.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .badAttribution }
        self.urlTemplate = urlTemplate
        self.attribution = credit
        let bracketed = host.contains(":") ? "[\(host)]" : host
        origin = "\(scheme)://\(bracketed.lowercased())" + (components.port.map { ":\($0)" } ?? "")
    }
}
