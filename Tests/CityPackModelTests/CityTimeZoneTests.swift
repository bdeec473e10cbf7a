import CityPackGeometry
@testable import CityPackModel
import Foundation
import Testing

/// The time zone `init` and `build` derive from a city's coordinates when neither the city file nor a feed gives
/// one (issue 37): the country's only zone, else the zone of the embedded 0.5° boundary grid, else the nearest
/// principal location of tzdata's zone.tab.
@Suite struct CityTimeZoneTests {
    /// Whether two zones give the same UTC offset every day of 2020–2029 (DST switches included).
    static func sameOffsets(_ a: String, _ b: String) -> Bool {
        guard let za = TimeZone(identifier: a), let zb = TimeZone(identifier: b) else { return false }
        return stride(from: 1_577_836_800.0, to: 1_893_456_000, by: 86_400).allSatisfy {
            za.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) == zb.secondsFromGMT(for: Date(timeIntervalSince1970: $0))
        }
    }

    @Test(arguments: [
        (43.7384, 7.4246, "MC", "Europe/Monaco"), (47.141, 9.521, "LI", "Europe/Vaduz"), (45.4642, 9.19, nil, "Europe/Rome"),
        (48.8566, 2.3522, nil, "Europe/Paris"), (59.3293, 18.0686, nil, "Europe/Stockholm"), (-33.8688, 151.2093, nil, "Australia/Sydney"),
        (40.7128, -74.006, nil, "America/New_York"), (35.6762, 139.6503, nil, "Asia/Tokyo"), (-23.5505, -46.6333, nil, "America/Sao_Paulo"),
        // The nearest principal location gets these wrong: Vaduz, Boise (one hour off), Helsinki (one hour off).
        (45.5152, -122.6784, nil, "America/Los_Angeles"), (59.8833, 29.9, nil, "Europe/Moscow"),
        (46.0037, 8.9511, nil, "Europe/Zurich"), (48.5734, 7.7521, nil, "Europe/Paris"), (54.7104, 20.4522, nil, "Europe/Kaliningrad"),
        (41.8781, -87.6298, nil, "America/Chicago"), (39.7392, -104.9903, nil, "America/Denver"),
        (33.4484, -112.074, nil, "America/Phoenix"), (21.3069, -157.8583, nil, "Pacific/Honolulu"),
        (28.6139, 77.209, nil, "Asia/Kolkata"), (-36.8485, 174.7633, nil, "Pacific/Auckland"),
        // A country with several zones: the grid's when it is one of them.
        (45.5152, -122.6784, "US", "America/Los_Angeles"), (59.8833, 29.9, "ru", "Europe/Moscow"),
    ] as [(Double, Double, String?, String)])
    func aCityGetsItsOwnZone(lat: Double, lon: Double, country: String?, zone: String) {
        #expect(CityTimeZone.zone(lat: lat, lon: lon, country: country) == zone)
        #expect(CityTimeZone.nearest(lat: lat, lon: lon, country: country).id == zone)
    }

    @Test func aMicrostateWithoutItsCountryGetsAZoneWithItsRules() {
        // Monaco and Liechtenstein are smaller than a grid cell: without addr:country they get the neighbour's zone,
        // which keeps the same clock.
        #expect(Self.sameOffsets(CityTimeZone.zone(lat: 43.7384, lon: 7.4246), "Europe/Monaco"))
        #expect(Self.sameOffsets(CityTimeZone.zone(lat: 47.141, lon: 9.521), "Europe/Vaduz"))
        #expect(CityTimeZone.isBorderCell(lat: 43.7384, lon: 7.4246))
        #expect(!CityTimeZone.isBorderCell(lat: 59.8833, lon: 29.9))
    }

    @Test func theOceanAndOddInputGiveAZoneWithoutCrashing() {
        for (lat, lon) in [(0.0, -30.0), (-50, -140), (90, 180), (-90, -180), (0, 540), (.nan, 0), (0, .infinity)] {
            #expect(TimeZone(identifier: CityTimeZone.zone(lat: lat, lon: lon)) != nil, "\(lat),\(lon)")
        }
    }

    @Test func everyZoneIsOneFoundationKnowsAndTheBoxCentreIsUsed() {
        #expect(CityTimeZone.zones.count > 300)
        for zone in CityTimeZone.zones { #expect(TimeZone(identifier: zone.id) != nil, "\(zone.id)") }
        let grid = CityTimeZone.Grid.shared
        #expect(grid.zoneIDs.count > 300 && grid.values.count == 720 * 360)
        for id in grid.zoneIDs {
            #expect(TimeZone(identifier: id) != nil && CityTimeZone.zonesByID[id] != nil, "\(id)")
        }
        let monaco = BoundingBox(minLon: 7.408, minLat: 43.724, maxLon: 7.44, maxLat: 43.752)
        #expect(CityTimeZone.nearest(to: monaco, country: "MC").id == "Europe/Monaco")
        #expect(CityTimeZone.zone(for: monaco, country: "MC") == "Europe/Monaco")
        #expect(CityTimeZone.nearest(to: monaco).id == CityTimeZone.zone(lat: monaco.centerLat, lon: monaco.centerLon))
        // Across the antimeridian: Fiji's box runs from 177°E to 178°W.
        #expect(CityTimeZone.nearest(to: BoundingBox(minLon: 177, minLat: -18.5, maxLon: -178, maxLat: -17)).id == "Pacific/Fiji")
    }
}
