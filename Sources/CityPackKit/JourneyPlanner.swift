import CityPackFormat
import Foundation

/// Journey planning over a pack's timetable (``RaptorSearch``): depart-at, range and arrive-by queries, journey
/// ids. Pure functions of the routing data and the query, so both readers give the same journeys.
package enum JourneyPlanner {
    /// The kind of query.
    package enum Mode: Sendable {
        /// Leave at the time: the Pareto set over (arrival, transfers).
        case departAt
        /// Every Pareto journey (later departure, earlier arrival, fewer transfers) leaving in [time, time + window].
        case range(windowSeconds: Int)
        /// Arrive by the time: the latest departures (per number of transfers) leaving in [time − window, time].
        case arriveBy(windowSeconds: Int)
    }

    /// The origin's or destination's stops with the walk to each, by stop index; empty when nothing is in reach.
    /// A stop (a station with its platforms) is reached without walking; as an origin, its footpaths too. A
    /// coordinate reaches the served stops within the walking limit.
    package static func access(
        _ endpoint: JourneyEndpoint, _ data: RoutingData, _ options: JourneyOptions, origin: Bool
    ) -> [RaptorSearch.Access] {
        let table = data.table
        var best: [Int32: RaptorSearch.Access] = [:]
        func offer(_ a: RaptorSearch.Access) {
            if options.wheelchair && data.wheelchairBlockedStop[Int(a.stop)] { return }
            if let known = best[a.stop], known.seconds <= a.seconds { return }
            best[a.stop] = a
        }
        switch endpoint {
        case .stop(let code):
            var bases: [Int32] = []
            for row in table.stopsByCode[code] ?? [] {
                bases.append(row)
                bases += table.children[row] ?? []
            }
            for b in bases { offer(.init(stop: b, seconds: 0, metres: 0, via: b)) }
            if origin {
                for b in bases {
                    for path in table.footpaths[Int(b)] {
                        guard let seconds = RaptorSearch.footpathSeconds(path, options) else { continue }
                        offer(.init(stop: path.to, seconds: seconds, metres: path.metres, via: b))
                    }
                }
            }
        case .coordinate(let lat, let lon):
            guard options.maxWalkMetres > 0 else { return [] }
            for s in 0..<table.stopPackID.count where data.served[s] {
                guard let sLat = table.stopLat[s], let sLon = table.stopLon[s] else { continue }
                let metres = TransitWalking.metres(lat, lon, sLat, sLon)
                guard metres <= options.maxWalkMetres else { continue }
                offer(.init(stop: Int32(s), seconds: Int32(TransitWalking.seconds(metres: metres,
                    speed: options.walkSpeed)), metres: Int32(metres)))
            }
        }
        return best.values.sorted { $0.stop < $1.stop }
    }

    /// Plans journeys.
    /// - Parameters:
    ///   - seconds: The query time, seconds from `date`'s 00:00 in the feed's zone.
    /// - Returns: Journeys sorted by departure, then arrival, then transfers.
    package static func plan(
        _ data: RoutingData, from origin: JourneyEndpoint, to destination: JourneyEndpoint, date: ServiceDate,
        seconds: Int, mode: Mode, options: JourneyOptions
    ) -> [Journey] {
        let origins = access(origin, data, options, origin: true)
        let targets = access(destination, data, options, origin: false)
        guard !origins.isEmpty, !targets.isEmpty else { return [] }
        var search = RaptorSearch(data: data, date: date, options: options)
        var found: [Journey] = []
        switch mode {
        case .departAt:
            for arrival in search.run(departure: Int32(seconds), origins: origins, targets: targets) {
                if let journey = build(search, arrival, origin, destination, departure: seconds) {
                    found.append(canonical(journey, data, origin, destination, date, options))
                }
            }
        case .range(let window), .arriveBy(let window):
            let start = if case .arriveBy = mode { seconds - window } else { seconds }
            let end = start + window
            for t in candidateTimes(data, search, origins, from: start, to: end) {
                for arrival in search.run(departure: Int32(t), origins: origins, targets: targets) {
                    guard let journey = build(search, arrival, origin, destination, departure: t),
                        journey.departure.seconds == t || journey.legs.allSatisfy({ $0.mode == .walk })
                    else { continue }
                    found.append(journey)
                }
            }
            if case .arriveBy = mode { found = found.filter { $0.arrival.seconds <= seconds } }
            if case .arriveBy = mode {
                found = found.filter { j in
                    !found.contains { o in
                        o.transfers <= j.transfers && o.departure.seconds >= j.departure.seconds && o.id != j.id
                            && (o.transfers < j.transfers || o.departure.seconds > j.departure.seconds
                                || o.arrival.seconds < j.arrival.seconds)
                    }
                }
            }
        }
        return pareto(found)
    }

    /// The times worth a run of a range query, latest first: every departure of a running trip from one of the
    /// origin's stops (less the walk there) in [start, end], and `start` itself.
    static func candidateTimes(
        _ data: RoutingData, _ search: RaptorSearch, _ origins: [RaptorSearch.Access], from start: Int, to end: Int
    ) -> [Int] {
        var times: Set<Int> = [start]
        let tripService = data.table.tripService
        for access in origins {
            let s = Int(access.stop)
            for r in Int(data.stopRouteStart[s])..<Int(data.stopRouteStart[s + 1]) {
                let pattern = data.patterns[Int(data.stopRoutePattern[r])]
                let i = Int(data.stopRoutePosition[r]), m = pattern.trips.count
                for (dayIndex, offset) in search.dayOffsets.enumerated() {
                    let shift = offset * 86_400
                    for k in 0..<m {
                        let t = Int(pattern.departures[i * m + k]) + shift - Int(access.seconds)
                        guard t >= start, t <= end,
                            search.runs[dayIndex][Int(tripService[Int(pattern.trips[k])])]
                        else { continue }
                        times.insert(t)
                    }
                }
            }
        }
        return times.sorted(by: >)
    }

    /// Journeys no other beats on all of (later departure, earlier arrival, fewer transfers), without
    /// duplicates, sorted by departure, arrival, transfers, id.
    static func pareto(_ journeys: [Journey]) -> [Journey] {
        var unique: [String: Journey] = [:]
        for j in journeys where unique[j.id] == nil { unique[j.id] = j }
        let all = Array(unique.values)
        let kept = all.filter { j in
            !all.contains { o in
                o.id != j.id && o.departure.seconds >= j.departure.seconds && o.arrival.seconds <= j.arrival.seconds
                    && o.transfers <= j.transfers
                    && (o.departure.seconds > j.departure.seconds || o.arrival.seconds < j.arrival.seconds
                        || o.transfers < j.transfers)
            }
        }
        return kept.sorted {
            ($0.departure.seconds, $0.arrival.seconds, $0.transfers, $0.id)
                < ($1.departure.seconds, $1.arrival.seconds, $1.transfers, $1.id)
        }
    }

    /// The journey as a run at its own departure finds it (so an id always resolves to what a search gives):
    /// reruns while the departure moves (at most three times).
    static func canonical(
        _ journey: Journey, _ data: RoutingData, _ origin: JourneyEndpoint, _ destination: JourneyEndpoint,
        _ date: ServiceDate, _ options: JourneyOptions
    ) -> Journey {
        var current = journey
        let rides = current.legs.filter { $0.mode == .ride }.count
        guard rides > 0 else { return current }
        for _ in 0..<3 {
            let t = current.departure.seconds
            guard let again = rerun(data, origin, destination, date, seconds: t, rides: rides, options) else { break }
            current = again
            if again.departure.seconds == t { break }
        }
        return current
    }

    /// The journey with exactly `rides` rides of a run at `seconds`, if the run finds one.
    static func rerun(
        _ data: RoutingData, _ origin: JourneyEndpoint, _ destination: JourneyEndpoint, _ date: ServiceDate,
        seconds: Int, rides: Int, _ options: JourneyOptions
    ) -> Journey? {
        var narrowed = options
        narrowed.maxTransfers = max(0, rides - 1)
        let origins = access(origin, data, narrowed, origin: true)
        let targets = access(destination, data, narrowed, origin: false)
        var search = RaptorSearch(data: data, date: date, options: narrowed)
        for arrival in search.run(departure: Int32(seconds), origins: origins, targets: targets)
        where arrival.round == rides {
            return build(search, arrival, origin, destination, departure: seconds)
        }
        return nil
    }

    // MARK: - Journeys from labels

    static func place(_ data: RoutingData, _ stop: Int32) -> JourneyPlace {
        let t = data.table, s = Int(stop)
        return JourneyPlace(stopID: t.stopCode[s], name: t.stopName[s], lat: t.stopLat[s] ?? 0, lon: t.stopLon[s] ?? 0)
    }

    static func endpointPlace(_ data: RoutingData, _ endpoint: JourneyEndpoint, stop: Int32) -> JourneyPlace {
        if case .coordinate(let lat, let lon) = endpoint { return JourneyPlace(stopID: nil, name: nil, lat: lat, lon: lon) }
        return place(data, stop)
    }

    /// The journey of a destination label, walking the labels back to the origin.
    static func build(
        _ search: RaptorSearch, _ arrival: RaptorSearch.Arrival, _ origin: JourneyEndpoint,
        _ destination: JourneyEndpoint, departure: Int
    ) -> Journey? {
        let data = search.data
        let table = data.table
        let date = search.date
        func time(_ s: Int32) -> JourneyTime { JourneyTime(date: date, seconds: Int(s)) }
        var legs: [JourneyLeg] = []
        var k = arrival.round
        var stop = arrival.stop
        var byFoot = arrival.byFoot
        var end = byFoot ? search.footArrival[k][Int(stop)] : search.rideArrival[k][Int(stop)]
        if arrival.egress.metres > 0 || isCoordinate(destination) {
            let last = end + arrival.egress.seconds
            legs.append(JourneyLeg(mode: .walk, from: place(data, stop), to: endpointPlace(data, destination, stop: stop),
                departure: time(end), arrival: time(last), metres: Int(arrival.egress.metres)))
        }
        var guardSteps = 0
        while true {
            guardSteps += 1
            if guardSteps > 4 * search.rounds + 4 { return nil }
            if byFoot {
                let from = search.footFrom[k][Int(stop)]
                if k == 0 || from < 0 {
                    // The origin's access walk, if any.
                    guard let access = origins(search, origin).first(where: { $0.stop == stop }) else { return nil }
                    if access.via != stop {
                        let arrive = search.footArrival[0][Int(stop)]
                        let from = access.via >= 0 ? place(data, access.via) : endpointPlace(data, origin, stop: stop)
                        legs.append(JourneyLeg(mode: .walk, from: from,
                            to: place(data, stop), departure: time(arrive - access.seconds), arrival: time(arrive),
                            metres: Int(access.metres)))
                    }
                    break
                }
                let path = table.footpaths[Int(from)].first { $0.to == stop }
                let start = search.rideArrival[k][Int(from)]
                legs.append(JourneyLeg(mode: .walk, from: place(data, from), to: place(data, stop),
                    departure: time(start), arrival: time(search.footArrival[k][Int(stop)]),
                    metres: path.map { Int($0.metres) }))
                stop = from
                byFoot = false
                end = start
                continue
            }
            let label = search.rideLabel[k][Int(stop)]
            guard label.pattern >= 0 else { return nil }
            let pattern = data.patterns[Int(label.pattern)]
            let m = pattern.trips.count
            let shift = Int32(search.dayOffsets[Int(label.day)] * 86_400)
            let trip = pattern.trips[Int(label.trip)]
            let line = Int(table.tripLine[Int(trip)])
            let b = Int(label.board), a = Int(label.alight)
            var calls: [JourneyCall] = []
            for i in (b + 1)..<a {
                calls.append(JourneyCall(place: place(data, pattern.stops[i]),
                    arrival: time(pattern.arrivals[i * m + Int(label.trip)] + shift),
                    departure: time(pattern.departures[i * m + Int(label.trip)] + shift)))
            }
            legs.append(JourneyLeg(
                mode: .ride, from: place(data, pattern.stops[b]), to: place(data, pattern.stops[a]),
                departure: time(pattern.departures[b * m + Int(label.trip)] + shift),
                arrival: time(pattern.arrivals[a * m + Int(label.trip)] + shift), tripID: table.tripCode[Int(trip)],
                routeID: table.lineRouteID[line], line: table.lineName(trip: trip), routeType: table.lineType[line],
                headsign: table.tripHeadsign[Int(trip)], serviceDate: date.adding(days: search.dayOffsets[Int(label.day)]),
                intermediateStops: calls))
            stop = pattern.stops[b]
            k -= 1
            byFoot = search.readyByFoot[k][Int(stop)]
            if k == 0 && !byFoot { return nil }
        }
        legs.reverse()
        guard !legs.isEmpty else { return nil }
        // Leave as late as the first ride allows: the walk to it ends when it departs.
        if legs.count >= 2, legs[0].mode == .walk, legs[1].mode == .ride {
            let span = legs[0].arrival.seconds - legs[0].departure.seconds
            legs[0].arrival = legs[1].departure
            legs[0].departure = JourneyTime(date: date, seconds: legs[1].departure.seconds - span)
        }
        let rides = legs.filter { $0.mode == .ride }.count
        let leave = legs.first.map { $0.departure } ?? JourneyTime(date: date, seconds: departure)
        let journeyDeparture = rides == 0 ? JourneyTime(date: date, seconds: departure) : leave
        var journey = Journey(id: "", departure: journeyDeparture, arrival: legs.last!.arrival,
            transfers: max(0, rides - 1), legs: legs)
        if rides == 0 {
            // A walk only: leave at the query time.
            var shifted = journey.legs
            var clock = departure
            for i in shifted.indices {
                let span = shifted[i].arrival.seconds - shifted[i].departure.seconds
                shifted[i].departure = JourneyTime(date: date, seconds: clock)
                shifted[i].arrival = JourneyTime(date: date, seconds: clock + span)
                clock += span
            }
            journey.legs = shifted
            journey.arrival = JourneyTime(date: date, seconds: clock)
        }
        journey.id = JourneyID.encode(journey, origin: origin, destination: destination)
        return journey
    }

    static func isCoordinate(_ endpoint: JourneyEndpoint) -> Bool {
        if case .coordinate = endpoint { return true }
        return false
    }

    static func origins(_ search: RaptorSearch, _ origin: JourneyEndpoint) -> [RaptorSearch.Access] {
        access(origin, search.data, search.options, origin: true)
    }
}

/// Journey ids: `base64url(version 1, origin, destination, date, departure, arrival − departure, rides,
/// 48-bit FNV-1a digest of the legs)`, about 40 characters. Resolving reruns the search at the departure and
/// compares digests, so an id never resolves to a different journey.
package enum JourneyID {
    /// The canonical text of the legs the digest covers: per leg its mode, stops (or coordinates in whole
    /// micro-degrees) and times, and for rides trip_id and service date.
    static func legsText(_ journey: Journey) -> String {
        journey.legs.map { leg in
            func micro(_ v: Double) -> Int { Int((v * 1e6).rounded()) }
            let from = leg.from.stopID ?? "\(micro(leg.from.lat)),\(micro(leg.from.lon))"
            let to = leg.to.stopID ?? "\(micro(leg.to.lat)),\(micro(leg.to.lon))"
            let times = "\(leg.departure.seconds)|\(leg.arrival.seconds)"
            if leg.mode == .ride {
                return "R|\(leg.tripID ?? "")|\(leg.serviceDate?.yyyymmdd ?? 0)|\(from)|\(to)|\(times)"
            }
            return "W|\(from)|\(to)|\(times)"
        }.joined(separator: ";")
    }

    /// 64-bit FNV-1a of UTF-8 text.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    static func encode(_ journey: Journey, origin: JourneyEndpoint, destination: JourneyEndpoint) -> String {
        var bytes: [UInt8] = [1]
        for endpoint in [origin, destination] {
            switch endpoint {
            case .stop(let code):
                bytes.append(0)
                let utf8 = Array(code.utf8)
                TimetableCoding.appendVarint(Int64(utf8.count), to: &bytes)
                bytes += utf8
            case .coordinate(let lat, let lon):
                bytes.append(1)
                TimetableCoding.appendVarint(Int64((lat * 1e6).rounded()), to: &bytes)
                TimetableCoding.appendVarint(Int64((lon * 1e6).rounded()), to: &bytes)
            }
        }
        TimetableCoding.appendVarint(Int64(journey.departure.date.dayNumber), to: &bytes)
        TimetableCoding.appendVarint(Int64(journey.departure.seconds), to: &bytes)
        TimetableCoding.appendVarint(Int64(journey.arrival.seconds - journey.departure.seconds), to: &bytes)
        bytes.append(UInt8(clamping: journey.legs.filter { $0.mode == .ride }.count))
        let digest = fnv1a(legsText(journey))
        for shift in stride(from: 40, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: digest >> UInt64(shift))) }
        return base64url(bytes)
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// What an id holds.
    package struct Decoded: Sendable {
        package var origin: JourneyEndpoint
        package var destination: JourneyEndpoint
        package var date: ServiceDate
        package var departure: Int
        package var arrival: Int
        package var rides: Int
        package var digest: UInt64
    }

    package static func decode(_ id: String) -> Decoded? {
        var text = id.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), data.count > 8, data.first == 1 else { return nil }
        let bytes = Array(data)
        // Canonical only: base64's last character carries unused low bits, so several texts decode to the same
        // bytes; an id is accepted only as the library writes it (a changed character is never `found`).
        guard base64url(bytes) == id else { return nil }
        var at = 1
        func varint() -> Int64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while at < bytes.count, shift < 64 {
                let b = bytes[at]
                at += 1
                value |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 {
                    // An over-long varint (a last byte of 0 after others) is another spelling of a shorter one.
                    if b == 0 && shift > 0 { return nil }
                    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
                }
                shift += 7
            }
            return nil
        }
        func endpoint() -> JourneyEndpoint? {
            guard at < bytes.count else { return nil }
            let tag = bytes[at]
            at += 1
            if tag == 0 {
                guard let count = varint(), count >= 0, at + Int(count) <= bytes.count else { return nil }
                guard let code = String(validating: bytes[at..<(at + Int(count))], as: UTF8.self) else { return nil }
                at += Int(count)
                return .stop(code)
            }
            guard tag == 1, let lat = varint(), let lon = varint() else { return nil }
            return .coordinate(lat: Double(lat) / 1e6, lon: Double(lon) / 1e6)
        }
        guard let origin = endpoint(), let destination = endpoint(), let day = varint(), let departure = varint(),
            let span = varint(), at + 7 == bytes.count, abs(day) < 3_000_000
        else { return nil }
        let rides = Int(bytes[at])
        var digest: UInt64 = 0
        for b in bytes[(at + 1)...] { digest = digest << 8 | UInt64(b) }
        return Decoded(origin: origin, destination: destination, date: ServiceDate(dayNumber: Int(day)),
            departure: Int(departure), arrival: Int(departure + span), rides: rides, digest: digest)
    }

    /// The 48 bits of the digest an id keeps.
    static func digest(_ journey: Journey) -> UInt64 { fnv1a(legsText(journey)) & 0xFFFF_FFFF_FFFF }
}
