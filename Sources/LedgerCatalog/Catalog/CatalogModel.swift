/// Rows of the four catalogue tables (Schemas/catalog.sql), as the statistics and the station
/// commands read them.
package struct CatalogOperator: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var type: Int64
    package var enabled: Bool
}

package struct CatalogLine: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var operatorID: Int64
    package var enabled: Bool
    package var lineType: Int64?
}

package struct CatalogStation: Sendable, Equatable {
    package var id: UInt32
    package var name: String
    package var yomi: String
    package var wiki: String
    package var pref: Int64
    package var address: String
    package var lat: Int64
    package var lng: Int64
    package var operatorID: Int64
    package var enabled: Bool
    package var weight: Int64
}

package struct CatalogMembership: Sendable, Equatable {
    package var lineID: Int64
    package var stationID: UInt32
    package var sort: Int64
}

/// Names the original apps show for codes (Schemas/domain-rules.md §7 and §9).
package enum CatalogNames {
    package static func operatorType(_ code: Int64) -> String {
        switch code {
        case 1: return "JR旅客会社"
        case 2: return "大手私鉄"
        case 3: return "準大手私鉄"
        case 4: return "公営交通"
        case 5: return "中小私鉄"
        case 6: return "モノレール"
        case 7: return "新交通システム"
        case 8: return "ケーブルカー"
        case 9: return "トロリーバス"
        case 10: return "浮上式鉄道"
        default: return "種別\(code)"
        }
    }

    /// The 47 prefectures in JIS X 0401 code order (1 北海道 … 47 沖縄県), in Japanese and in English.
    static let prefectureNames: [(japanese: String, english: String)] = [
        ("北海道", "Hokkaido"), ("青森県", "Aomori"), ("岩手県", "Iwate"), ("宮城県", "Miyagi"), ("秋田県", "Akita"), ("山形県", "Yamagata"), ("福島県", "Fukushima"), ("茨城県", "Ibaraki"),
        ("栃木県", "Tochigi"), ("群馬県", "Gunma"), ("埼玉県", "Saitama"), ("千葉県", "Chiba"), ("東京都", "Tokyo"), ("神奈川県", "Kanagawa"), ("新潟県", "Niigata"), ("富山県", "Toyama"),
        ("石川県", "Ishikawa"), ("福井県", "Fukui"), ("山梨県", "Yamanashi"), ("長野県", "Nagano"), ("岐阜県", "Gifu"), ("静岡県", "Shizuoka"), ("愛知県", "Aichi"), ("三重県", "Mie"),
        ("滋賀県", "Shiga"), ("京都府", "Kyoto"), ("大阪府", "Osaka"), ("兵庫県", "Hyogo"), ("奈良県", "Nara"), ("和歌山県", "Wakayama"), ("鳥取県", "Tottori"), ("島根県", "Shimane"),
        ("岡山県", "Okayama"), ("広島県", "Hiroshima"), ("山口県", "Yamaguchi"), ("徳島県", "Tokushima"), ("香川県", "Kagawa"), ("愛媛県", "Ehime"), ("高知県", "Kochi"), ("福岡県", "Fukuoka"),
        ("佐賀県", "Saga"), ("長崎県", "Nagasaki"), ("熊本県", "Kumamoto"), ("大分県", "Oita"), ("宮崎県", "Miyazaki"), ("鹿児島県", "Kagoshima"), ("沖縄県", "Okinawa"),
    ]

    package static func prefecture(_ code: Int64) -> String {
        (1...47).contains(code) ? prefectureNames[Int(code) - 1].japanese : "県\(code)"
    }

    /// The same names in English (`report --lang en`); operators, lines and stations keep their
    /// own names, which are proper names.
    package static func operatorTypeInEnglish(_ code: Int64) -> String {
        let names = ["JR passenger railways", "major private railways", "semi-major private railways",
                     "public transport bureaus", "small and medium private railways", "monorails",
                     "automated guideway transit", "cable cars", "trolleybuses", "maglev"]
        return (1...10).contains(code) ? names[Int(code) - 1] : "type \(code)"
    }

    package static func prefectureInEnglish(_ code: Int64) -> String {
        (1...47).contains(code) ? prefectureNames[Int(code) - 1].english : "prefecture \(code)"
    }
}
