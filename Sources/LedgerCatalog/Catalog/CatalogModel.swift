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

    static let prefectures = [
        "北海道", "青森県", "岩手県", "宮城県", "秋田県", "山形県", "福島県", "茨城県", "栃木県", "群馬県",
        "埼玉県", "千葉県", "東京都", "神奈川県", "新潟県", "富山県", "石川県", "福井県", "山梨県", "長野県",
        "岐阜県", "静岡県", "愛知県", "三重県", "滋賀県", "京都府", "大阪府", "兵庫県", "奈良県", "和歌山県",
        "鳥取県", "島根県", "岡山県", "広島県", "山口県", "徳島県", "香川県", "愛媛県", "高知県", "福岡県",
        "佐賀県", "長崎県", "熊本県", "大分県", "宮崎県", "鹿児島県", "沖縄県",
    ]

    package static func prefecture(_ code: Int64) -> String {
        (1...47).contains(code) ? prefectures[Int(code) - 1] : "県\(code)"
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
        (1...47).contains(code) ? prefecturesInEnglish[Int(code) - 1] : "prefecture \(code)"
    }

    static let prefecturesInEnglish = [
        "Hokkaido", "Aomori", "Iwate", "Miyagi", "Akita", "Yamagata", "Fukushima", "Ibaraki", "Tochigi", "Gunma",
        "Saitama", "Chiba", "Tokyo", "Kanagawa", "Niigata", "Toyama", "Ishikawa", "Fukui", "Yamanashi", "Nagano",
        "Gifu", "Shizuoka", "Aichi", "Mie", "Shiga", "Kyoto", "Osaka", "Hyogo", "Nara", "Wakayama",
        "Tottori", "Shimane", "Okayama", "Hiroshima", "Yamaguchi", "Tokushima", "Kagawa", "Ehime", "Kochi", "Fukuoka",
        "Saga", "Nagasaki", "Kumamoto", "Oita", "Miyazaki", "Kagoshima", "Okinawa",
    ]
}
