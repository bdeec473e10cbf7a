// The pack format speaks in the geometry module's types (coordinates, boxes, geohash cells, great-circle distance)
// and in its editorial action kinds: a module that imports CityPackFormat (or CityPackKit, which re-exports it)
// sees them without importing CityPackGeometry.
@_exported import CityPackGeometry
