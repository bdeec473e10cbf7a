/// The defaults both readers apply when an app gives none — CityPackKit and the web reader (`clients/web`) — stated
/// once. Swift uses these; the web reader's are generated from them (``WebFlavour/javaScriptConstants``, the block
/// of `clients/web/constants.js`), and `citypack query --help` prints them, so the three cannot drift.
public enum ReaderDefaults {
    /// Radius of `nearby`, metres: what "the place I am standing at" means.
    public static let nearbyRadiusMetres = 25.0
    /// Results of `search` without a limit.
    public static let searchLimit = 20
    /// Results of `nearby` without a limit.
    public static let nearbyLimit = 50
    /// Places of a box listing (`places(in:)`) without a limit.
    public static let listingLimit = 1000
    /// Departures of a stop without a limit, in the libraries (a screenful).
    public static let departuresLimit = 10
    /// Departures `citypack query --departures` lists without `--limit` (a timetable page in a terminal).
    package static let commandLineDeparturesLimit = 50
    /// First radius of the expanding search for the nearest places of a category, metres; it grows 4× a step.
    package static let firstRingMetres = 250.0
    /// Journeys: at most this many transfers.
    public static let maxTransfers = 5
    /// Journeys: the longest walk to, from or between stops, metres.
    public static let maxWalkMetres = 800
    /// Journeys: the change time at a stop without a transfers.txt rule, seconds.
    public static let minChangeSeconds = 60
    /// The planner's "not reached" time (Int32.max / 2, so that adding a leg cannot overflow).
    package static let unreachedSeconds = Int32.max / 2
}
