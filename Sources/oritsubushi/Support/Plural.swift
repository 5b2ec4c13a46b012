/// A count and its noun, singular for one ("1 event", "2 events", "0 events"): every human line
/// that counts something says it this way. JSON keeps plain numbers.
enum Plural {
    static func count(_ n: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }
}
