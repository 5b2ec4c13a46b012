/// The short names people use for the operators with the most stations, where the catalogue
/// writes the company's full name (`--operator 近鉄` for 近畿日本鉄道). An alias is looked up
/// (folded, `StationNameFolding.fold`) before the partial match on operator names, so 阪急 means
/// 阪急電鉄 and not also 北大阪急行電鉄, and 京成 means 京成電鉄 and not also 新京成電鉄.
/// Every full name here is checked against the bundled catalogue by StationResolverTests.
package enum OperatorAliases {
    package static let table: [(alias: String, operators: [String])] = [
        ("JR", ["北海道旅客鉄道", "東日本旅客鉄道", "東海旅客鉄道", "西日本旅客鉄道", "四国旅客鉄道", "九州旅客鉄道"]),
        ("JR北海道", ["北海道旅客鉄道"]),
        ("JR東日本", ["東日本旅客鉄道"]),
        ("JR東海", ["東海旅客鉄道"]),
        ("JR西日本", ["西日本旅客鉄道"]),
        ("JR四国", ["四国旅客鉄道"]),
        ("JR九州", ["九州旅客鉄道"]),
        ("近鉄", ["近畿日本鉄道"]),
        ("名鉄", ["名古屋鉄道"]),
        ("東武", ["東武鉄道"]),
        ("東京メトロ", ["東京地下鉄"]),
        ("メトロ", ["東京地下鉄"]),
        ("都営", ["東京都交通局"]),
        ("大阪メトロ", ["大阪市高速電気軌道"]),
        ("南海", ["南海電気鉄道"]),
        ("東急", ["東急電鉄"]),
        ("西武", ["西武鉄道"]),
        ("京阪", ["京阪電気鉄道"]),
        ("名古屋市営", ["名古屋市交通局"]),
        ("阪急", ["阪急電鉄"]),
        ("京急", ["京浜急行電鉄"]),
        ("西鉄", ["西日本鉄道"]),
        ("小田急", ["小田急電鉄"]),
        ("京王", ["京王電鉄"]),
        ("京成", ["京成電鉄"]),
        ("阪神", ["阪神電気鉄道"]),
        ("相鉄", ["相模鉄道"]),
        ("山陽", ["山陽電気鉄道"]),
        ("神鉄", ["神戸電鉄"]),
        ("富山地鉄", ["富山地方鉄道"]),
        ("広電", ["広島電鉄"]),
        ("土佐電", ["とさでん交通"]),
    ]

    /// The full operator names an alias stands for, or `nil` when `folded` is no alias.
    package static func operators(for folded: String) -> [String]? {
        table.first { StationNameFolding.fold($0.alias) == folded }?.operators
    }
}
