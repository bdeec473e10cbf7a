@testable import CityPackEmit
import Testing

/// ``PlaceMerge``: which GTFS stop and OSM feature are one place (issue 32) — what it merges and what it must not.
@Suite struct PlaceMergeTests {
    static func stop(_ id: Int64, _ name: String?, _ lat: Double, _ lon: Double, type: Int = 0) -> PlaceMerge.Stop {
        PlaceMerge.Stop(id: id, name: name, lat: lat, lon: lon, locationType: type, parent: nil)
    }

    static func feature(_ id: Int64, _ name: String?, _ category: String, _ lat: Double, _ lon: Double) -> PlaceMerge.Feature {
        PlaceMerge.Feature(id: id, name: name, names: [:], category: category, lat: lat, lon: lon)
    }

    @Test(arguments: [
        ("missori m3", "Missori M3"), ("Duomo M1 M3", "duomo"), ("Stazione Centrale FS", "Centrale"),
        ("Dorfstrasse", "Dorfstraße"), ("Zürich HB", "Zurich HB"), ("Porta Venezia", "PORTA VENEZIA"),
    ])
    func namesThatMatch(_ a: String, _ b: String) {
        #expect(PlaceMerge.namesMatch(a, b))
    }

    @Test(arguments: [
        ("Missori", "Crocetta"), ("Porta Romana", "Porta Genova"), ("M1", "M3"), ("14 St", "23 St"), ("Station", "Metro"),
    ])
    func namesThatDoNotMatch(_ a: String, _ b: String) {
        #expect(!PlaceMerge.namesMatch(a, b))
    }

    @Test func pairsWithinTheCategoryDistanceOnly() {
        // 0.0003° of latitude ≈ 33 m; 0.001° ≈ 111 m.
        let features = [
            Self.feature(4, "Missori M3", "tram_stop", 45.4600, 9.1900),
            Self.feature(8, "Missori", "metro", 45.4600, 9.1900),
            Self.feature(12, "Crocetta", "tram_stop", 45.4600, 9.1900),
        ]
        let stops = [
            Self.stop(3, "missori m3", 45.4603, 9.1900),  // 33 m from both: the tram stop pairs (metro: the station)
            Self.stop(7, "Missori", 45.4610, 9.1900, type: 1),  // 111 m: within the metro's 200 m
            Self.stop(11, "crocetta", 45.4610, 9.1900),  // 111 m: beyond a tram stop's 50 m
        ]
        let pairs = PlaceMerge.pairs(features: features, stops: stops)
        #expect(pairs.map { [$0.poi, $0.stop] } == [[4, 3], [8, 7]])
    }

    @Test func eachPlaceInOnePairStationsFirst() {
        let features = [Self.feature(4, "Centrale", "train_station", 45.0, 9.0)]
        let stops = [Self.stop(3, "Centrale", 45.0, 9.0), Self.stop(7, "Centrale FS", 45.001, 9.0, type: 1)]
        #expect(PlaceMerge.pairs(features: features, stops: stops).map(\.stop) == [7])
        // Unnamed stops and entrances never pair; other categories never pair.
        #expect(PlaceMerge.pairs(features: features, stops: [Self.stop(3, nil, 45.0, 9.0), Self.stop(7, "Centrale", 45.0, 9.0, type: 2)]).isEmpty)
        #expect(PlaceMerge.pairs(features: [Self.feature(4, "Centrale", "cafe", 45.0, 9.0)], stops: stops).isEmpty)
    }
}

extension PlaceMergeTests {
    @Test(arguments: [
        ("Piazza Diocleziano", "p.za diocleziano"), ("Viale Murillo - Via Ricciarelli", "v.le murillo via ricciarelli"),
        ("Via Console Marcello - Via Monte Altissimo", "via c. marcello via m. altissimo"),
        ("Colonne di San Lorenzo", "colonne di s. lorenzo"), ("Lambrate FS", "LAMBRATE F.S."),
    ])
    func abbreviationsAndInitials(_ a: String, _ b: String) {
        #expect(PlaceMerge.namesMatch(a, b))
    }

    @Test(arguments: [("Via Carlo Marx", "via c. marcello"), ("c. m.", "Carlo Marx"), ("Piazza Duomo", "p.za Diaz")])
    func abbreviationsDoNotOvermatch(_ a: String, _ b: String) {
        #expect(!PlaceMerge.namesMatch(a, b))
    }
}

/// What the merge listing (PlaceMergeListingTests) showed: a bus stop merged with the metro station of the same
/// place name, Italian street words abbreviated and linking words dropped by feeds.
extension PlaceMergeTests {
    @Test(arguments: [
        ("Corso di Porta Romana - Via Santa Sofia", "c.so p.ta romana via s. sofia"), ("Piazza della Repubblica", "p.zza repubblica"),
        ("Viale Monza", "v.le monza"), ("Via Dante", "v. dante"), ("Piazzale Loreto", "p.zale loreto"),
        ("Place Sainte-Dévote (Gare)", "Place Ste-Devote Gare"), ("Main Street", "Main St."), ("Wiener Str. 5", "Wiener Straße 5"),
    ])
    func abbreviationsTheListingShowed(_ a: String, _ b: String) {
        #expect(PlaceMerge.namesMatch(a, b))
    }

    @Test func aBusStopDoesNotMergeWithAMetroStationOfTheSameName() {
        var metro = Self.stop(2031, "P.TA GENOVA F.S.", 45.45292, 9.17004)
        metro.modes = ["metro"]
        var bus = Self.stop(823, "p.ta genova m2", 45.45282, 9.16990)
        bus.modes = ["bus_stop"]
        let features = [
            Self.feature(1031589509, "Porta Genova M2", "bus_stop", 45.45290, 9.17000),
            Self.feature(6959068336, "Porta Genova FS", "metro", 45.45250, 9.17080),
        ]
        // Names match either way (m2 and F.S. are dropped); the modes decide.
        #expect(PlaceMerge.namesMatch("Porta Genova M2", "P.TA GENOVA F.S."))
        let pairs = PlaceMerge.pairs(features: features, stops: [metro, bus])
        #expect(pairs.map { [$0.poi, $0.stop] } == [[1031589509, 823], [6959068336, 2031]])
        // Without known modes (a feed without trips) the nearest stop of the same name still pairs.
        metro.modes = []
        #expect(PlaceMerge.pairs(features: [features[0]], stops: [metro]).map(\.stop) == [2031])
        let misses = PlaceMerge.nearMisses(features: features, stops: [metro.with(modes: ["metro"]), bus])
        #expect(misses.map { "\($0.poi)-\($0.stop)-\($0.reason)" }.contains("1031589509-2031-modes"))
    }
}

extension PlaceMerge.Stop {
    func with(modes: [String]) -> Self {
        var copy = self
        copy.modes = modes
        return copy
    }
}
