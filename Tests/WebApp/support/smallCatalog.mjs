// A small catalogue document in the /v1/catalog shape, for unit tests.
export function smallCatalogDoc({ withOrder = true } = {}) {
  const st = (id, name, yomi, pref, lat, lng, operator, lines, extra = {}) =>
    ({ id, name, yomi, wiki: '', pref, lat, lng, weight: 13, operator, lines, enabled: true, address: `addr${id}`, ...extra });
  return {
    format: 1, version: 176,
    operators: [
      { id: 10102, name: '東海旅客鉄道', type: 1, enabled: true },
      { id: 300023, name: '伊勢鉄道', type: 5, enabled: true },
      { id: 50050, name: '近畿日本鉄道', type: 2, enabled: true },
      { id: 716001, name: '関西電力', type: 9, enabled: false },
    ],
    lines: [
      { id: 12036, name: '紀勢本線', operator: 10102, enabled: true, ...(withOrder ? { stations: [201112, 201111, 202945] } : {}) },
      { id: 30002301, name: '伊勢線', operator: 300023, enabled: true, ...(withOrder ? { stations: [300260, 300261] } : {}) },
      { id: 60005003, name: '名古屋線', operator: 50050, enabled: true, ...(withOrder ? { stations: [301230, 301231] } : {}) },
      { id: 60005099, name: '廃止線', operator: 50050, enabled: false, ...(withOrder ? { stations: [301231] } : {}) },
    ],
    stations: [
      st(201111, '津駅', 'つ', 24, 34734000, 136510000, 10102, [12036], { weight: 3, address: 'b' }),
      st(201112, '一身田駅', 'いしんでん', 24, 34760000, 136510000, 10102, [12036], { address: 'a' }),
      st(300260, '津駅', 'つ', 24, 34734000, 136510000, 300023, [30002301], { wiki: '津駅' }),
      st(300261, '鈴鹿駅', 'すずか', 24, 34880000, 136580000, 300023, [30002301]),
      st(301230, '津駅', 'つ', 24, 34734000, 136510000, 50050, [60005003], { weight: 2 }),
      st(301231, '津新町駅', 'つしんまち', 24, 34715000, 136500000, 50050, [60005003, 60005099]),
      st(306100, '伏石駅', 'ふせいし', 37, 34300000, 134040000, 50050, [], { enabled: false }),
      st(202945, '小田原駅', 'おだわら', 14, 35256281, 139155442, 10102, [12036], { wiki: 'Odawara Station ' }),
    ],
  };
}
