import CityPackFormat
import Testing

/// ``CJKBigrams``: the same cases as clients/web/test/cjk.test.mjs checks for the JS reader's `cjkBigrams`.
@Suite struct CJKBigramsTests {
    @Test(arguments: [
        ("海洋博物館", "海洋 洋博 博物 物館"),
        ("館", "館"),
        ("Café Tokyo駅前", "Café Tokyo 駅前"),
        ("국립중앙박물관", "국립 립중 중앙 앙박 박물 물관"),
        ("museum", "museum"),
        ("公衆トイレ | Public toilet", "公衆 衆ト トイ イレ | Public toilet"),
        ("上海博物馆 | 上海博物館", "上海 海博 博物 物馆 | 上海 海博 博物 物館"),
    ])
    func expandsRunsIntoBigrams(_ text: String, _ expected: String) {
        #expect(CJKBigrams.expand(text) == expected)
    }

    @Test func classifiesScripts() {
        for ch in ["あ", "ア", "ｱ", "ー", "漢", "㐀", "豈", "𠀀", "한", "ᄀ", "ㄱ"] {
            #expect(CJKBigrams.isCJK(ch.unicodeScalars.first!.value), "\(ch)")
        }
        for ch in ["a", "é", "ж", "ع", "ก", "1", "。", "、", "　"] {
            #expect(!CJKBigrams.isCJK(ch.unicodeScalars.first!.value), "\(ch)")
        }
    }
}
