import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// Calendars: keys, ranges, weekday flags, expiry relative to the build date.
    static func checkCalendars(_ c: GTFSValidationContext) {
        let feed = c.feed
        c.checkDuplicates(feed.calendars.lazy.map { (key: $0.serviceID, line: $0.line) }, table: "calendar",
            field: "service_id")
        let calendarLine = feed.calendars.reduce(into: [String: Int32]()) { m, cal in
            if m[cal.serviceID] == nil { m[cal.serviceID] = cal.line }
        }
        var firstException: [String: Int32] = [:]
        for d in feed.calendarDates {
            let key = "\(d.serviceID) \(GTFSDate.text(d.date))"
            guard let first = firstException[key] else {
                firstException[key] = d.line
                continue
            }
            var notes = [Diagnostic.Note("first defined here", at: c.at("calendar_dates", first, "date"))]
            if let line = calendarLine[d.serviceID] {
                notes.append(Diagnostic.Note("service `\(d.serviceID)` defined here", at: c.at("calendar", line)))
            }
            c.report(Rules.gtfsDuplicateKey,
                "service `\(d.serviceID)` has two exceptions on \(GTFSDate.text(d.date))", "calendar_dates", d.line,
                field: "date", entity: "service_id=\(d.serviceID)", notes: notes)
        }
        // Last active day per service, and where it comes from.
        var lastDay: [String: (day: Int32, table: String, line: Int32)] = [:]
        for cal in feed.calendars {
            let entity = "service_id=\(cal.serviceID)"
            if cal.startDate > cal.endDate {
                c.report(Rules.gtfsCalendarRangeOutOfOrder,
                    "start_date \(GTFSDate.text(cal.startDate)) is after end_date \(GTFSDate.text(cal.endDate))",
                    "calendar", cal.line, field: "start_date", entity: entity)
            }
            if cal.days == 0 {
                c.report(Rules.gtfsServiceNoActiveDay, "service runs on no day of the week", "calendar", cal.line,
                    field: "monday", entity: entity)
            }
            // A row with no weekday or an inverted range never runs, so it does not date the service (reported above).
            if cal.days != 0, cal.startDate <= cal.endDate, cal.endDate > (lastDay[cal.serviceID]?.day ?? 0) {
                lastDay[cal.serviceID] = (cal.endDate, "calendar", cal.line)
            }
        }
        for d in feed.calendarDates where d.exceptionType == 1 && d.date > (lastDay[d.serviceID]?.day ?? 0) {
            lastDay[d.serviceID] = (d.date, "calendar_dates", d.line)
        }
        var feedEnd: (day: Int32, table: String, line: Int32)?
        for (service, last) in lastDay.sorted(by: { $0.key < $1.key }) {
            if GTFSDate.dayNumber(last.day) < c.buildDay {
                c.report(Rules.gtfsExpiredCalendar, "service `\(service)` ended on \(GTFSDate.text(last.day))",
                    last.table, last.line, field: last.table == "calendar" ? "end_date" : "date",
                    entity: "service_id=\(service)")
            }
            if last.day > (feedEnd?.day ?? 0) { feedEnd = last }
        }
        if let info = feed.feedInfo, let end = info.endDate {
            feedEnd = (end, "feed_info", info.line)
        }
        if let end = feedEnd {
            let remaining = GTFSDate.dayNumber(end.day) - c.buildDay
            if remaining >= 0 && remaining < 7 {
                c.report(Rules.gtfsFeedExpiresSoon,
                    "the feed's last service date \(GTFSDate.text(end.day)) is \(remaining) day(s) after the build date",
                    end.table, end.line,
                    field: end.table == "feed_info" ? "feed_end_date" : end.table == "calendar" ? "end_date" : "date")
            }
        }
    }

    /// Shapes: sequence order and distances per shape, unused shapes, coordinates.
    static func checkShapes(_ c: GTFSValidationContext) {
        let shapes = c.feed.shapes
        guard shapes.count > 0 else { return }
        var byShape = [[Int]](repeating: [], count: shapes.ids.count)
        for i in 0..<shapes.count { byShape[Int(shapes.shape[i])].append(i) }
        let used = Set(c.feed.trips.compactMap(\.shapeID))
        for (s, rows) in byShape.enumerated() {
            let id = shapes.ids[s]
            let entity = "shape_id=\(id)"
            if !used.contains(id) {
                c.report(Rules.gtfsUnusedShape, "shape is not used by any trip", "shapes", shapes.line[rows[0]],
                    field: "shape_id", entity: entity)
            }
            let ordered = rows.sorted { (shapes.sequence[$0], $0) < (shapes.sequence[$1], $1) }
            var previous = -1, previousDistance = -1
            for r in ordered {
                if previous >= 0 && shapes.sequence[r] == shapes.sequence[previous] {
                    c.report(Rules.gtfsDuplicateShapeSequence,
                        "shape_pt_sequence \(shapes.sequence[r]) is used twice in shape `\(id)`", "shapes",
                        shapes.line[r], field: "shape_pt_sequence", entity: entity,
                        notes: [Diagnostic.Note("first used here", at: c.at("shapes", shapes.line[previous]))])
                }
                let d = shapes.distance[r]
                if !d.isNaN {
                    if previousDistance >= 0 && d < shapes.distance[previousDistance] {
                        c.report(Rules.gtfsDecreasingShapeDistance,
                            "shape_dist_traveled \(d) is less than the previous point's \(shapes.distance[previousDistance])",
                            "shapes", shapes.line[r], field: "shape_dist_traveled", entity: entity,
                            notes: [Diagnostic.Note("previous point is here",
                                at: c.at("shapes", shapes.line[previousDistance])),
                                Diagnostic.Note("shape `\(id)` starts here", at: c.at("shapes", shapes.line[ordered[0]]))])
                    }
                    previousDistance = r
                }
                let p = Coordinate(lat: shapes.lat[r], lon: shapes.lon[r])
                if !p.isValid {
                    checkCoordinate(p, c, table: "shapes", line: shapes.line[r], field: "shape_pt_lat", entity: entity)
                }
                previous = r
            }
        }
    }

    /// Frequencies: trip references, headways and overlaps.
    static func checkFrequencies(_ c: GTFSValidationContext) {
        let trips = Set(c.tripByID.keys)
        var byTrip: [String: [TransitFrequency]] = [:]
        for f in c.feed.frequencies {
            let entity = "trip_id=\(f.tripID)"
            c.checkReference(f.tripID, in: trips, target: "trips", table: "frequencies", line: f.line,
                field: "trip_id", entity: entity)
            if f.startTime < 0 || f.endTime < 0 {
                continue  // unparsable times were reported by the reader
            } else if f.headwaySecs <= 0 {
                c.report(Rules.gtfsInvalidHeadway, "headway_secs \(f.headwaySecs) must be positive", "frequencies",
                    f.line, field: "headway_secs", entity: entity)
            } else if f.endTime <= f.startTime {
                c.report(Rules.gtfsInvalidHeadway,
                    "end_time \(gtfsTimeText(f.endTime)) is not after start_time \(gtfsTimeText(f.startTime))",
                    "frequencies", f.line, field: "end_time", entity: entity)
            } else {
                byTrip[f.tripID, default: []].append(f)
            }
        }
        for (trip, list) in byTrip.sorted(by: { $0.key < $1.key }) where list.count > 1 {
            let sorted = list.sorted { ($0.startTime, $0.line) < ($1.startTime, $1.line) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.startTime < a.endTime {
                c.report(Rules.gtfsOverlappingFrequency,
                    "frequency \(gtfsTimeText(b.startTime))–\(gtfsTimeText(b.endTime)) overlaps \(gtfsTimeText(a.startTime))–\(gtfsTimeText(a.endTime))",
                    "frequencies", b.line, field: "start_time", entity: "trip_id=\(trip)",
                    notes: [Diagnostic.Note("other frequency is here", at: c.at("frequencies", a.line))])
            }
        }
    }
}
