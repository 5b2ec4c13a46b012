import LedgerSync

/// The rehearsal of a recovery kit (Schemas/encryption.md §6): the person re-enters two of its 16
/// words, asked by number, to show that the kit they kept is readable. Whether it was done is the
/// key file's `rehearsed` mark (`KeyRing.markingKitRehearsed`, encryption.md §11).
package enum RecoveryKitRehearsal {
    /// Two distinct word numbers (1 … 16) to ask for.
    package static func askedWords(using generator: inout some RandomNumberGenerator) -> [Int] {
        let first = Int.random(in: 1...RecoveryKit.wordCount, using: &generator)
        var second = Int.random(in: 1...(RecoveryKit.wordCount - 1), using: &generator)
        if second >= first { second += 1 }
        return [first, second].sorted()
    }

    /// Whether every word given (`words[n]`: word n, 1 … 16) is word n of `kit`, read as a kit is
    /// read (§6: any case, O as 0, I and L as 1, hyphens and white space skipped). Nothing given,
    /// a number outside 1 … 16, or a character outside the alphabet is a failed rehearsal.
    package static func check(words: [Int: String], kit: String) -> Bool {
        let kitWords = RecoveryKit.words(of: kit).map(characterValues)
        guard !words.isEmpty, kitWords.count == RecoveryKit.wordCount else { return false }
        return words.allSatisfy { number, word in
            guard (1...RecoveryKit.wordCount).contains(number), let values = characterValues(word) else { return false }
            return values == kitWords[number - 1]
        }
    }

    private static func characterValues(_ text: String) -> [UInt8]? {
        try? RecoveryKit.characterValues(of: text)
    }
}
