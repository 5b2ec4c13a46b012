import LedgerCore

/// One statement of a catalogue dump and the physical line it starts on (1-based).
package struct DumpStatement: Sendable, Equatable {
    package var line: Int
    package var sql: String
}

/// Splits a catalogue dump the way the original apps execute it (Schemas/domain-rules.md §15):
///
/// - the file is read as physical lines (`\n`), not split at semicolons;
/// - lines are joined while the running count of `'` is odd (a string literal spans lines); the
///   joined text keeps its `\n`, as iOS does (Android drops it, a fidelity bug);
/// - a chunk that is blank after trimming is skipped;
/// - each chunk is one statement, so a missing trailing `;` is fine;
/// - `""` outside any literal is read as the empty string `''` (SQLite's legacy double-quoted
///   string behaviour, which two statements of the real dumps need), so the import does not
///   depend on how the system SQLite was built.
///
/// The whole file must be UTF-8 (a byte order mark at the start is skipped, `TextInput`); the
/// first invalid byte is reported with its line number.
package enum SQLDumpSplitter {
    package static func split(_ bytes: [UInt8], file: String) throws -> [DumpStatement] {
        var statements: [DumpStatement] = []
        var buffer: [UInt8] = []
        var quotes = 0
        var startLine = 0
        var lineNumber = 0
        var lineStart = TextInput.textStart(bytes)
        let count = bytes.count
        while lineStart < count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let line = bytes[lineStart..<lineEnd]
            guard isValidUTF8(line) else {
                throw LedgerError(.badInput, "the catalogue dump is not valid UTF-8", file: file, line: lineNumber)
            }
            if buffer.isEmpty { startLine = lineNumber } else { buffer.append(0x0A) }
            buffer.append(contentsOf: line)
            for byte in line where byte == 0x27 { quotes += 1 }
            lineStart = lineEnd + 1
            if quotes % 2 == 1 { continue }
            if let statement = finish(buffer, line: startLine) { statements.append(statement) }
            buffer.removeAll(keepingCapacity: true)
            quotes = 0
        }
        if !buffer.isEmpty {
            guard quotes % 2 == 0 else {
                throw LedgerError(.badInput, "a string literal opened here is never closed", file: file, line: startLine)
            }
            if let statement = finish(buffer, line: startLine) { statements.append(statement) }
        }
        return statements
    }

    private static func finish(_ buffer: [UInt8], line: Int) -> DumpStatement? {
        guard buffer.contains(where: { !isSpace($0) }) else { return nil }
        return DumpStatement(line: line, sql: String(decoding: mapEmptyDoubleQuotes(buffer), as: UTF8.self))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }

    /// Rewrites `""` that stands alone (not inside a `'…'` literal, not an escaped quote inside a
    /// `"…"` identifier) to `''`.
    static func mapEmptyDoubleQuotes(_ sql: [UInt8]) -> [UInt8] {
        guard sql.count > 1, sql.contains(0x22) else { return sql }
        enum State { case plain, single, double }
        var out: [UInt8] = []
        out.reserveCapacity(sql.count)
        var state = State.plain
        var i = 0
        while i < sql.count {
            let c = sql[i]
            let next: UInt8? = i + 1 < sql.count ? sql[i + 1] : nil
            switch state {
            case .plain:
                if c == 0x27 {
                    state = .single
                } else if c == 0x22 {
                    if next == 0x22 {
                        out.append(0x27); out.append(0x27)
                        i += 2
                        continue
                    }
                    state = .double
                }
            case .single:
                if c == 0x27 {
                    if next == 0x27 { out.append(c); out.append(c); i += 2; continue }
                    state = .plain
                }
            case .double:
                if c == 0x22 {
                    if next == 0x22 { out.append(c); out.append(c); i += 2; continue }
                    state = .plain
                }
            }
            out.append(c)
            i += 1
        }
        return out
    }

    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { RecordStream.isValidUTF8($0) }
    }
}
