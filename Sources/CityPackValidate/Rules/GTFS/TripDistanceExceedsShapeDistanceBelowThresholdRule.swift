import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsTripDistanceExceedsShapeDistanceBelowThreshold = RuleDescription(
        "gtfs.trip_distance_exceeds_shape_distance_below_threshold", .gtfs, .warning,
        "A trip's last shape_dist_traveled exceeds its shape's, its last stop less than 11.1 m from the shape's end",
        title: "Trip distance slightly exceeds shape",
        rationale: "The last stop lies at the end of the line but its distance runs past the shape's: usually "
            + "rounding, or a shape cut a few metres short. gtfs-validator warns "
            + "(trip_distance_exceeds_shape_distance_below_threshold), even when the stop is exactly at the shape's "
            + "end; farther away it is gtfs.trip_distance_exceeds_shape_distance.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3,3,2.8", "T1,08:10:00,08:10:00,S3,3,2.9"),
            passing: Base.stopTimes))
}

// The check is TripDistanceExceedsShapeDistanceRule's: one comparison per trip decides between the two codes.
