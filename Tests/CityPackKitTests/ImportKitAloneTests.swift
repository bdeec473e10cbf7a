// This file imports ONLY CityPackKit (and the test framework): it compiles only because CityPackKit re-exports
// the types its public API names (Catalog, BoundingBox, Coordinate, PackSchema.Wheelchair, …), as an app's would.
// (`package` declarations compile here too, being in the same package: PublicAPITests checks what is public.)
import CityPackKit
import Testing

@Suite struct ImportKitAloneTests {
    @Test func theFormatTypesAreVisibleThroughCityPackKitAlone() throws {
        let box = BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.44, maxLat: 43.76)
        let point = Coordinate(lat: 43.73, lon: 7.42)
        let catalog = Catalog(formatVersion: 1, updatedAt: nil, packs: [])
        let update: UpdateDownload? = catalog.download(city: "monaco", installedVersion: 1)
        #expect(box.minLat < point.lat && point.lat < box.maxLat)
        #expect(update == nil && catalog.packs.isEmpty)
        #expect(PackSchema.Wheelchair(rawValue: "limited") == .limited)
        #expect(PackSchema.formatVersion >= 1)
    }
}
