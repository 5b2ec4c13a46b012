import Foundation

/// Escaping for text written into the report's HTML.
package enum HTMLText {
    private static let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    /// Text content and attribute values (`&`, `<`, `>`, `"`, `'` as entities).
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if let entity = entities[character] { out += entity } else { out.append(character) }
        }
        return out
    }

    /// JSON placed inside `<script type="application/json">`: `<` becomes `\u003c`, so no memo can
    /// close the element (`<` occurs only inside JSON strings, where the escape means the same).
    package static func scriptSafeJSON(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
