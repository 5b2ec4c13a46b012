import Foundation
import GRDB

extension Row {
    /// A column read as `sqlite3_column_text` reads it: NULL as "", numbers as their text. The
    /// catalogue's columns come from dumps, so their storage class is not guaranteed.
    func text(_ column: String) -> String {
        switch (self[column] as DatabaseValue).storage {
        case .null: return ""
        case .int64(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// A column read as `sqlite3_column_int64` reads it: NULL as 0, reals truncated, text by
    /// its leading integer.
    func integer(_ column: String) -> Int64 {
        switch (self[column] as DatabaseValue).storage {
        case .null, .blob: return 0
        case .int64(let value): return value
        case .double(let value): return value.isFinite ? Int64(Swift.max(-9.2e18, Swift.min(9.2e18, value))) : 0
        case .string(let value):
            let digits = value.drop(while: \.isWhitespace).prefix { $0.isNumber || $0 == "-" || $0 == "+" }
            return Int64(digits) ?? 0
        }
    }

    func isNull(_ column: String) -> Bool {
        (self[column] as DatabaseValue).isNull
    }
}
