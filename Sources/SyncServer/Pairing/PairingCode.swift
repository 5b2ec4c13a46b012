/// A one-time pairing code (`oritsubushi server pair NAME`, Schemas/sync-api.yaml `/v1/pair`): 40
/// random bits as 8 characters of Crockford's base32, shown as two groups of four (`K3QZ-8M2T`).
/// People read it off one screen and type (or scan) it into another, so the alphabet has no
/// I, L, O or U, and reading it back forgives case, dashes, spaces and the look-alikes
/// (O → 0, I and L → 1). Stored only as a slow key of its canonical form (`storedKey(salt:)`).
package struct PairingCode: Sendable, Equatable {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    package static let length = 8

    /// The canonical form: 8 characters of the alphabet.
    package let canonical: String

    /// A new random code.
    package static func random() -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        let bits = UInt64.random(in: 0..<(1 << 40), using: &generator)
        let characters = (0..<length).map { alphabet[Int(bits >> UInt64(5 * (length - 1 - $0)) & 31)] }
        return PairingCode(canonical: String(characters))
    }

    /// Reads a code as typed; nil when it cannot be one.
    package init?(typed text: String) {
        var characters: [Character] = []
        for character in text.uppercased() where character != "-" && !character.isWhitespace {
            switch character {
            case "O": characters.append("0")
            case "I", "L": characters.append("1")
            default:
                guard Self.alphabet.contains(character) else { return nil }
                characters.append(character)
            }
        }
        guard characters.count == Self.length else { return nil }
        canonical = String(characters)
    }

    private init(canonical: String) { self.canonical = canonical }

    /// `K3QZ-8M2T`: how the code is shown.
    package var grouped: String { "\(canonical.prefix(4))-\(canonical.suffix(4))" }

    /// The refusal of a code no store knows: the same sentence for every such code.
    package static var unknown: SyncServerError {
        SyncServerError(.unauthorized, "this pairing code is not known; check it, or ask the server's operator for a new one")
    }

    /// The refusal of a code used or expired already; it names no account (the caller has no
    /// token: Schemas/sync-api.yaml `/v1/pair`).
    package static var gone: SyncServerError {
        SyncServerError(.gone, "this pairing code was used already or has expired; ask the server's operator for a new one")
    }
}
