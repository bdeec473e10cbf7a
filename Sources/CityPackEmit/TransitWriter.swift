import CityPackFormat
import CityPackModel
import CityPackSQLite

/// Writes the transit tables of ``PackSchema`` (stops, stop buckets, lines, services, trips, patterns,
/// frequencies, footpaths) for validated GTFS feeds, and collects the `search` rows of stops.
///
/// Every table is filled in a fixed order derived from sorted GTFS ids (feed index first), so the same feeds
/// always give the same rows in the same order. Rows the validator already reported as broken are skipped rather
/// than written half: trips with an unknown route, stop times with an unknown stop or no time. Stops outside the
/// city box and trips with no stop inside are left out unless the city keeps them (``TransitBBoxSelection``).
enum TransitWriter {
    /// Counts of what was written, for the manifest.
    struct Summary: Equatable {
        var stops = 0
        var lines = 0
        /// GTFS route_types of the lines serving each stop (a station: also those of its platforms), by stop id;
        /// search finds a stop by the category words of its modes (``PackWriter``).
        var modes: [Int64: Set<Int32>] = [:]
        /// Each written stop with a position in the box: (id, name, lat, lon, location_type), in id order, for
        /// ``PlaceMerge``.
        var places: [PlaceMerge.Stop] = []
    }

    /// Writes every feed's transit tables into an open pack (inside the writer's transaction).
    @discardableResult
    static func write(_ feeds: [GTFSFeed], city: City, db: PackWriter.Database) throws(EmitError) -> Summary {
        let bbox = city.bbox
        // Parameters are bound in each table's column order (``PackSchema/TableSchema/insert(or:)``).
        let stopInsert = try db.prepare(PackSchema.Stop.inserting())
        let lineInsert = try db.prepare(PackSchema.Line.inserting())
        let serviceInsert = try db.prepare(PackSchema.Service.inserting())
        let serviceDateInsert = try db.prepare(PackSchema.ServiceDate.inserting(or: .replace))
        let tripInsert = try db.prepare(PackSchema.Trip.inserting())
        let frequencyInsert = try db.prepare(PackSchema.Frequency.inserting(or: .ignore))

        // Ids are assigned over all feeds at once so they stay unique.
        var summary = Summary()
        var bucketed: [ProximityIndex.Point] = []
        var patterns = PatternBuilder()
        var footpaths: [FootpathBuilder.Row] = []
        var timezones: [String] = []
        var stopTimezones: [String] = []
        var maxSeconds: Int64 = -1
        var stopIndex = 0
        var nextLine: Int64 = 1
        var nextService: Int64 = 1
        var nextTrip: Int64 = 1

        for (feedIndex, feed) in feeds.enumerated() {
            let feedNumber = Int64(feedIndex)
            let selection = TransitBBoxSelection(feed, city: city)
            timezones.append(feed.agencies.first?.timezone ?? "")

            // Stops in the box, sorted by stop_id; ids ≡ 3 (mod 4).
            let stopOrder = feed.stops.indices.filter { selection.keepsStop[$0] }
                .sorted { feed.stops[$0].id < feed.stops[$1].id }
            var stopIDs = [Int64](repeating: -1, count: feed.stops.count)
            var stopByCode: [String: Int64] = [:]
            for index in stopOrder {
                let id = PackSchema.stopID(index: stopIndex)
                stopIndex += 1
                stopIDs[index] = id
                stopByCode[feed.stops[index].id] = stopByCode[feed.stops[index].id] ?? id
            }
            for index in stopOrder {
                let stop = feed.stops[index]
                let id = stopIDs[index]
                let coordinate = stop.coordinate.flatMap { $0.isValid ? $0 : nil }
                let cell = coordinate.map {
                    Geohash.cell(lat: $0.lat, lon: $0.lon, precision: PackSchema.bucketPrecision)
                }
                stopInsert.bind(PackSchema.Stop.id, id)
                stopInsert.bind(PackSchema.Stop.feed, Int(feedNumber))
                stopInsert.bind(PackSchema.Stop.stopID, stop.id)
                stopInsert.bind(PackSchema.Stop.name, stop.name)
                stopInsert.bind(PackSchema.Stop.lat, coordinate?.lat)
                stopInsert.bind(PackSchema.Stop.lon, coordinate?.lon)
                stopInsert.bind(PackSchema.Stop.cell, cell)
                stopInsert.bind(PackSchema.Stop.locationType, Int(stop.locationType))
                stopInsert.bind(PackSchema.Stop.parent, stop.parentStation.flatMap { stopByCode[$0] })
                stopInsert.bind(PackSchema.Stop.wheelchair, stop.wheelchairBoarding == 0 ? nil : Int(stop.wheelchairBoarding))
                try stopInsert.run()
                if let coordinate, stop.locationType <= 2, bbox.contains(coordinate) {
                    bucketed.append(ProximityIndex.Point(id: id, lat: coordinate.lat, lon: coordinate.lon))
                    summary.places.append(PlaceMerge.Stop(
                        id: id, name: stop.name, lat: coordinate.lat, lon: coordinate.lon,
                        locationType: Int(stop.locationType), parent: stop.parentStation.flatMap { stopByCode[$0] }))
                }
                if let zone = stop.timezone, zone != timezones.last, stopByCode[stop.id] == id {
                    stopTimezones.append("\(stop.id)=\(zone)")
                }
            }
            summary.stops += stopOrder.count
            footpaths += FootpathBuilder.rows(feed: feed, stopIDs: stopIDs, stopByCode: stopByCode)

            // Lines, sorted by route_id; a route all of whose trips are left out goes too.
            var lineByRoute: [String: Int64] = [:]
            var routeTypes: [String: Int32] = [:]
            for route in feed.routes where routeTypes[route.id] == nil { routeTypes[route.id] = route.type }
            for route in feed.routes.sorted(by: { $0.id < $1.id })
            where lineByRoute[route.id] == nil && !selection.droppedRoutes.contains(route.id) {
                let id = nextLine
                nextLine += 1
                lineByRoute[route.id] = id
                lineInsert.bind(PackSchema.Line.id, id)
                lineInsert.bind(PackSchema.Line.feed, Int(feedNumber))
                lineInsert.bind(PackSchema.Line.routeID, route.id)
                lineInsert.bind(PackSchema.Line.agency, route.agencyID)
                lineInsert.bind(PackSchema.Line.shortName, route.shortName)
                lineInsert.bind(PackSchema.Line.longName, route.longName)
                lineInsert.bind(PackSchema.Line.type, Int(route.type))
                lineInsert.bind(PackSchema.Line.colour, route.color)
                lineInsert.bind(PackSchema.Line.textColour, route.textColor)
                try lineInsert.run()
                summary.lines += 1
            }

            // Services: every id named by calendar, calendar_dates or a trip.
            var calendarByService: [String: TransitCalendar] = [:]
            for calendar in feed.calendars where calendarByService[calendar.serviceID] == nil {
                calendarByService[calendar.serviceID] = calendar
            }
            var serviceCodes = Set(calendarByService.keys)
            for date in feed.calendarDates { serviceCodes.insert(date.serviceID) }
            for trip in feed.trips { serviceCodes.insert(trip.serviceID) }
            var serviceByCode: [String: Int64] = [:]
            for code in serviceCodes.sorted() {
                let id = nextService
                nextService += 1
                serviceByCode[code] = id
                let calendar = calendarByService[code]
                serviceInsert.bind(PackSchema.Service.id, id)
                serviceInsert.bind(PackSchema.Service.feed, Int(feedNumber))
                serviceInsert.bind(PackSchema.Service.serviceID, code)
                serviceInsert.bind(PackSchema.Service.startDate, calendar.map { Int($0.startDate) })
                serviceInsert.bind(PackSchema.Service.endDate, calendar.map { Int($0.endDate) })
                serviceInsert.bind(PackSchema.Service.days, calendar.map { Int($0.days) })
                try serviceInsert.run()
            }
            let exceptions = feed.calendarDates
                .filter { $0.exceptionType == 1 || $0.exceptionType == 2 }
                .sorted { ($0.serviceID, $0.date, $0.line) < ($1.serviceID, $1.date, $1.line) }
            for exception in exceptions {
                guard let service = serviceByCode[exception.serviceID] else { continue }
                serviceDateInsert.bind(PackSchema.ServiceDate.service, service)
                serviceDateInsert.bind(PackSchema.ServiceDate.date, Int(exception.date))
                serviceDateInsert.bind(PackSchema.ServiceDate.type, Int(exception.exceptionType))
                try serviceDateInsert.run()
            }

            // Trips, sorted by trip_id; trips whose route is unknown are left out.
            var frequenciesByTrip: [String: [TransitFrequency]] = [:]
            for frequency in feed.frequencies
            where frequency.startTime >= 0 && frequency.endTime > frequency.startTime && frequency.headwaySecs > 0 {
                frequenciesByTrip[frequency.tripID, default: []].append(frequency)
            }
            let tripOrder = feed.trips.indices.sorted { feed.trips[$0].id < feed.trips[$1].id }
            var seenTrips: Set<String> = []
            for tripIndex in tripOrder where selection.keepsTrip[tripIndex] {
                let trip = feed.trips[tripIndex]
                guard let line = lineByRoute[trip.routeID], let service = serviceByCode[trip.serviceID],
                    seenTrips.insert(trip.id).inserted
                else { continue }
                let id = nextTrip
                nextTrip += 1
                tripInsert.bind(PackSchema.Trip.id, id)
                tripInsert.bind(PackSchema.Trip.tripID, trip.id)
                tripInsert.bind(PackSchema.Trip.line, line)
                tripInsert.bind(PackSchema.Trip.service, service)
                tripInsert.bind(PackSchema.Trip.headsign, trip.headsign)
                tripInsert.bind(PackSchema.Trip.direction, trip.directionID.map { Int($0) })
                tripInsert.bind(PackSchema.Trip.wheelchair, trip.wheelchairAccessible == 0 ? nil : Int(trip.wheelchairAccessible))
                try tripInsert.run()

                let times = timedStops(of: tripIndex, in: feed, stopIDs: stopIDs)
                if let type = routeTypes[trip.routeID] {
                    for time in times where time.stop >= 0 { summary.modes[time.stop, default: []].insert(type) }
                }
                if let frequencies = frequenciesByTrip[trip.id] {
                    guard let first = times.first?.seconds else { continue }
                    for frequency in frequencies.sorted(by: { $0.startTime < $1.startTime }) {
                        frequencyInsert.bind(PackSchema.Frequency.trip, id)
                        frequencyInsert.bind(PackSchema.Frequency.start, Int(frequency.startTime))
                        frequencyInsert.bind(PackSchema.Frequency.end, Int(frequency.endTime))
                        frequencyInsert.bind(PackSchema.Frequency.headway, Int(frequency.headwaySecs))
                        frequencyInsert.bind(PackSchema.Frequency.exactTimes, Int(frequency.exactTimes ? 1 : 0))
                        try frequencyInsert.run()
                        let lastStart = Int64(frequency.endTime - 1)
                        maxSeconds = max(maxSeconds, lastStart + (times.map(\.seconds).max() ?? first) - first)
                    }
                    patterns.add(trip: id, times: times, shift: first, frequency: true)
                } else {
                    for time in times.dropLast() where time.stop >= 0 { maxSeconds = max(maxSeconds, time.seconds) }
                    patterns.add(trip: id, times: times, shift: 0, frequency: false)
                }
            }
        }

        try PackWriter.writeBuckets(ProximityIndex(bucketed), db: db)
        let patternInsert = try db.prepare(PackSchema.Pattern.inserting())
        for (index, pattern) in patterns.finished().enumerated() {
            patternInsert.bind(PackSchema.Pattern.id, Int64(index + 1))
            patternInsert.bind(PackSchema.Pattern.flags, pattern.flags)
            patternInsert.bind(PackSchema.Pattern.stops, TimetableCoding.varints(TimetableCoding.deltas(pattern.stops)))
            patternInsert.bind(PackSchema.Pattern.trips, TimetableCoding.varints(TimetableCoding.deltas(pattern.trips)))
            patternInsert.bind(PackSchema.Pattern.times, TimetableCoding.varints(TimetableCoding.encodeTimes(
                arrivals: pattern.arrivals, departures: pattern.departures, stopCount: pattern.stops.count)))
            try patternInsert.run()
        }
        let footpathInsert = try db.prepare(PackSchema.Footpath.inserting(or: .ignore))
        for row in footpaths.sorted(by: { ($0.from, $0.to) < ($1.from, $1.to) }) {
            footpathInsert.bind(PackSchema.Footpath.from, row.from)
            footpathInsert.bind(PackSchema.Footpath.to, row.to)
            footpathInsert.bind(PackSchema.Footpath.metres, Int(row.metres))
            footpathInsert.bind(PackSchema.Footpath.seconds, row.seconds.map { Int($0) })
            try footpathInsert.run()
        }
        if !feeds.isEmpty {
            let meta = try db.prepare(PackSchema.Meta.inserting(or: .replace))
            meta.bind(PackSchema.Meta.key, PackSchema.MetaKey.transitTimezones)
            meta.bind(PackSchema.Meta.value, timezones.joined(separator: ","))
            try meta.run()
            if !stopTimezones.isEmpty {
                meta.bind(PackSchema.Meta.key, PackSchema.MetaKey.transitStopTimezones)
                meta.bind(PackSchema.Meta.value, stopTimezones.joined(separator: ","))
                try meta.run()
            }
        }
        if maxSeconds >= 0 {
            let meta = try db.prepare(PackSchema.Meta.inserting(or: .replace))
            meta.bind(PackSchema.Meta.key, PackSchema.MetaKey.transitMaxSeconds)
            meta.bind(PackSchema.Meta.value, String(maxSeconds))
            try meta.run()
        }
        return summary
    }

    /// The trip's stop times in stop_sequence order that have a known stop and a time (departure, else
    /// arrival), as pack stop ids and seconds; the id is -1 for a stop left out of the pack (outside the box), so
    /// the trip's last stop is still known.
    static func timedStops(of trip: Int, in feed: GTFSFeed, stopIDs: [Int64]) -> [TimedStop] {
        let stopTimes = feed.stopTimes
        guard trip < stopTimes.tripRanges.count else { return [] }
        var out: [TimedStop] = []
        for position in stopTimes.tripRanges[trip] {
            let row = Int(stopTimes.byTrip[Int(position)])
            let stop = Int(stopTimes.stop[row])
            let departure = stopTimes.departure[row], arrival = stopTimes.arrival[row]
            let time = departure >= 0 ? departure : arrival
            guard stop >= 0, stop < stopIDs.count, time >= 0 else { continue }
            out.append(TimedStop(stop: stopIDs[stop], arrival: Int64(arrival >= 0 ? arrival : time), seconds: Int64(time)))
        }
        return out
    }

    /// A trip's call at a stop: pack stop id (-1 outside the pack), arrival and departure (`seconds`) in seconds
    /// of the service day, each standing in for the other when missing.
    struct TimedStop: Equatable {
        var stop: Int64
        var arrival: Int64
        var seconds: Int64
    }
}
