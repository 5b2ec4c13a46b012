import LedgerCore
import Foundation
import LedgerViews
import Testing

/// The views' one JSON writer: keys in encoding order, exact degrees, the ledger's string escaping,
/// and output that Foundation reads back to the same values.
@Suite struct OrderedJSONEncoderTests {
    struct Sample: Encodable {
        var type = "Point"
        var coordinates = [Degrees(139_155_442), Degrees(135_000_000), Degrees(-500_000), Degrees(1)]
        var memo = "line 1\n\"quoted\" </script> \u{8}/é"
        var distance = 0.0
        var absent: Int?
        var nested = ["zeta": [1, 2]]
    }

    @Test func keysInEncodingOrderAndNumbersAsWritten() throws {
        let text = try OrderedJSONEncoder().encode(Sample())
        #expect(text == #"{"type":"Point","coordinates":[139.155442,135.0,-0.5,0.000001],"memo":"line 1\n\"quoted\" </script> \u0008/é","distance":0.0,"nested":{"zeta":[1,2]}}"#)
        let back = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(back["memo"] as? String == Sample().memo)
        #expect(back["coordinates"] as? [Double] == [139.155442, 135, -0.5, 0.000001])
    }

    @Test func linePerElementOnlyUnderTheNamedKeys() throws {
        struct Document: Encodable { var features = [[1], [2]]; var bbox = [1, 2] }
        #expect(try OrderedJSONEncoder(linePerElement: ["features"]).encode(Document()) == "{\"features\":[\n[1],\n[2]\n],\"bbox\":[1,2]}")
        struct Empty: Encodable { var features: [Int] = [] }
        #expect(try OrderedJSONEncoder(linePerElement: ["features"]).encode(Empty()) == "{\"features\":[\n\n]}")
    }

    @Test func nonFiniteNumbersAreRefused() {
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encode([Double.nan]) }
    }
}
