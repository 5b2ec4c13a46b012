/// A piece of the report's HTML (report.html, or a fragment of fragments.html) with holes:
/// `{{name}}` takes text, escaped (HTMLText); `{{{name}}}` takes markup or a file, as is. Every
/// hole must be given a value: a missing one is a bug in the report's code, which the tests that
/// render the report find.
struct ReportTemplate {
    let text: String

    /// The page.
    static let page = ReportTemplate(text: ReportAssets.text("report.html"))

    /// The fragments by name: each runs from its `<!-- fragment NAME -->` line to the next one.
    static let fragments: [String: ReportTemplate] = {
        var result: [String: ReportTemplate] = [:]
        var name: String?
        var lines: [Substring] = []
        func close() { if let name { result[name] = ReportTemplate(text: lines.joined(separator: "\n")) } }
        for line in ReportAssets.text("fragments.html").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- fragment "), line.hasSuffix(" -->") {
                close()
                name = String(line.dropFirst("<!-- fragment ".count).dropLast(" -->".count))
                lines = []
            } else {
                lines.append(line)
            }
        }
        close()
        return result
    }()

    static func fragment(_ name: String) -> ReportTemplate {
        guard let fragment = fragments[name] else { preconditionFailure("no fragment \(name) in fragments.html") }
        return fragment
    }

    /// The fragment `name` with `values` in its holes.
    static func render(_ name: String, _ values: [String: String]) -> String { fragment(name).render(values) }

    func render(_ values: [String: String]) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + values.values.reduce(0) { $0 + $1.utf8.count })
        var rest = text[...]
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            let raw = rest[open.upperBound...].hasPrefix("{")
            let closing = raw ? "}}}" : "}}"
            let nameStart = raw ? rest.index(after: open.upperBound) : open.upperBound
            guard let close = rest[nameStart...].firstRange(of: closing) else { preconditionFailure("unclosed hole in a report template") }
            let name = String(rest[nameStart..<close.lowerBound])
            guard let value = values[name] else { preconditionFailure("the report template's hole \(name) has no value") }
            out += raw ? value : HTMLText.escaped(value)
            rest = rest[close.upperBound...]
        }
        out += rest
        return out
    }
}
