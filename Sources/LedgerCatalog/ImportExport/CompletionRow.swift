import LedgerCore

/// One row of the original apps' `completions` table, as the sync upload and the app databases
/// carry it (Schemas/domain-rules.md §13 and §14).
package struct CompletionRow: Sendable, Equatable {
    package var station: UInt32
    package var compDate: UInt32
    /// Unix seconds.
    package var updateDate: Int64
    package var memo: String
    /// Where the row came from in its file (a line number, or a row number for SQLite).
    package var line: Int

    package init(station: UInt32, compDate: UInt32, updateDate: Int64, memo: String, line: Int = 0) {
        (self.station, self.compDate, self.updateDate, self.memo, self.line) = (station, compDate, updateDate, memo, line)
    }
}

/// A row as `CompletionsFile.jsonl` writes it: these keys in this order, without `line` (where a
/// row came from is not part of the record).
extension CompletionRow: Encodable {
    enum CodingKeys: String, CodingKey {
        case station, compDate = "comp_date", updateDate = "update_date", memo
    }
}

/// The original sync upload format (Schemas/domain-rules.md §14): `s_id⇥comp_date⇥update_date⇥memo⏎`, with a
/// backslash written `\\` and a newline `\n` in the memo; TAB and CR are not escaped, so the
/// memo is everything after the third TAB.
package enum OritsubushiTSV {
    package static func escape(_ memo: String) -> String {
        var out = ""
        out.reserveCapacity(memo.utf8.count)
        for c in memo.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    package static func line(_ row: CompletionRow) -> String {
        "\(row.station)\t\(row.compDate)\t\(row.updateDate)\t\(escape(row.memo))\n"
    }

    /// Parses a whole file: a byte order mark at the start is skipped and a CR before a line's LF
    /// is part of the line end (`TextInput`), so a memo never ends in one. Every line must be
    /// well-formed UTF-8 with four fields, a positive
    /// `s_id`, a non-negative `comp_date` and `update_date`, and only `\\` and `\n` escapes;
    /// a bad line goes to `invalid`, which throws (strict: the first bad line is the error) or
    /// records it (`--skip-invalid`). Date validity is checked by the importer.
    package static func parse(_ bytes: [UInt8], file: String,
                              invalid: (LedgerError) throws -> Void = { throw $0 }) throws -> [CompletionRow] {
        var rows: [CompletionRow] = []
        var lineNumber = 0
        var start = TextInput.textStart(bytes)
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = bytes[start..<TextInput.contentEnd(bytes, lineStart: start, lineEnd: end)]
            start = end + 1
            do {
                rows.append(try parseLine(line, number: lineNumber, file: file))
            } catch let error as LedgerError {
                try invalid(error)
            }
        }
        return rows
    }

    private static func parseLine(_ line: ArraySlice<UInt8>, number lineNumber: Int, file: String) throws -> CompletionRow {
        func bad(_ why: String) -> LedgerError {
            LedgerError(.badInput, "malformed oritsubushi-tsv line: \(why)", file: file, line: lineNumber)
        }
        guard line.withUnsafeBytes({ RecordStream.isValidUTF8($0) }) else {
            throw LedgerError(.badInput, "the file is not valid UTF-8", file: file, line: lineNumber)
        }
        guard !line.isEmpty else { throw bad("the line is empty") }
        var fields: [ArraySlice<UInt8>] = []
        var fieldStart = line.startIndex
        var i = line.startIndex
        while i < line.endIndex && fields.count < 3 {
            if line[i] == 0x09 {
                fields.append(line[fieldStart..<i])
                fieldStart = i + 1
            }
            i += 1
        }
        guard fields.count == 3 else { throw bad("expected 4 TAB-separated fields (s_id, comp_date, update_date, memo)") }
        let memoBytes = line[fieldStart..<line.endIndex]
        func number(_ field: ArraySlice<UInt8>, _ name: String) throws -> Int64 {
            guard !field.isEmpty, field.count <= 18, field.allSatisfy({ (0x30...0x39).contains($0) }),
                  let value = Int64(String(decoding: field, as: UTF8.self)) else {
                throw bad("\(name) '\(String(decoding: field, as: UTF8.self))' is not a non-negative integer")
            }
            return value
        }
        let station = try number(fields[0], "s_id")
        guard station > 0, station <= Int64(UInt32.max) else { throw bad("s_id \(station) is not a station id") }
        let compDate = try number(fields[1], "comp_date")
        guard compDate <= Int64(UInt32.max) else { throw bad("comp_date \(compDate) is out of range") }
        let updateDate = try number(fields[2], "update_date")
        guard updateDate < (1 << 47) / 1000 else { throw bad("update_date \(updateDate) is out of range") }
        var memo: [UInt8] = []
        memo.reserveCapacity(memoBytes.count)
        var j = memoBytes.startIndex
        while j < memoBytes.endIndex {
            let c = memoBytes[j]
            if c == 0x5C {
                guard j + 1 < memoBytes.endIndex else { throw bad("the memo ends with a lone backslash") }
                switch memoBytes[j + 1] {
                case 0x5C: memo.append(0x5C)
                case 0x6E: memo.append(0x0A)
                default: throw bad("the memo has an unknown escape (only \\\\ and \\n exist)")
                }
                j += 2
            } else {
                memo.append(c)
                j += 1
            }
        }
        return CompletionRow(station: UInt32(station), compDate: UInt32(compDate), updateDate: updateDate,
                             memo: String(decoding: memo, as: UTF8.self), line: lineNumber)
    }
}
