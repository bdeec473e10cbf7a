import CityPackFormat
import CityPackIngest
import CityPackModel
import Testing

@Suite struct WayGeometryTests {
    @Test func openWayHalfwayAndConvexCentroid() throws {
        let line = WayGeometry.representativePoint([(0, 0), (0, 1), (0, 3)])
        #expect(line == Coordinate(lat: 0, lon: 1.5))
        let square = try #require(WayGeometry.representativePoint([(0, 0), (0, 2), (2, 2), (2, 0), (0, 0)]))
        #expect(abs(square.lat - 1) < 1e-6 && abs(square.lon - 1) < 1e-3)
    }
}
