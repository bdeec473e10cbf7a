// Every type CityPackKit's public API names (Manifest, Catalog, PackMeta, Coordinate, BoundingBox, …) lives in
// CityPackFormat, which is not a product of its own: re-export it so `import CityPackKit` alone compiles an app.
@_exported import CityPackFormat
