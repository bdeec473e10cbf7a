extension PackSchema {
    /// A coordinate in degrees as `poi.lat` / `poi.lon` store it: an INTEGER of degrees × 10⁷ when that is exact
    /// (``storedDegrees(_:)``), else the REAL. Reads either.
    package struct StoredDegrees: Sendable, Hashable {
        /// Degrees.
        package var degrees: Double

        /// A coordinate of `degrees`.
        package init(_ degrees: Double) { self.degrees = degrees }
    }

    /// `poi.category` and `poi_category.category`: the category's code (format 3 on, ``categoryCodesQuery``) or,
    /// in formats 1 and 2 and for a category the pack does not list, its id as TEXT.
    package enum CategoryValue: Sendable, Hashable {
        /// A code of ``categoryCodesQuery``.
        case code(Int64)
        /// The category id itself.
        case id(String)

        /// The category id: `ids[code]` (ids in code order), the code's digits when out of range, or the id.
        package func id(codes ids: [String]) -> String {
            switch self {
            case .code(let code): code >= 0 && code < Int64(ids.count) ? ids[Int(code)] : String(code)
            case .id(let id): id
            }
        }
    }
}
