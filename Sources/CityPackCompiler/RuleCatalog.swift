import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackValidate

/// Every rule CityPack can report, in catalogue order: the one hand-written list that `citypack rules`,
/// README's table, docs/RULES.md, SARIF rule metadata, the rule-example tests and the city file's `rules:` check
/// all read.
///
/// Rules are described next to the code that reports them (reading rules in CityPackIngest, rules over the model
/// in CityPackValidate's `Rules/`), so the list is assembled here, where both stages are visible. Families come
/// in ``RuleKind`` order; within a family, add new rules at the end: the order is the documents' order.
package enum RuleCatalog {
    /// Every rule, in catalogue order.
    package static let all: [RuleDescription] = city + osm + csv + gtfs + editorial + copy + pack

    /// Every rule code, for checks that only need to know whether a code exists.
    package static let codes: Set<String> = Set(all.map(\.code))

    private static let byCode: [String: RuleDescription] = Dictionary(
        all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The rule with this code, if any.
    package static func rule(_ code: String) -> RuleDescription? { byCode[code] }

    static let city: [RuleDescription] = [
        Rules.citySyntax, Rules.cityMissingField, Rules.cityInvalidBBox, Rules.cityMissingSource, Rules.cityUnknownRule,
        Rules.cityInvalidLocale, Rules.cityDuplicateID, Rules.cityFleetInvalid,
    ]

    static let osm: [RuleDescription] = [
        Rules.osmXMLMalformed, Rules.osmEntityDeclaration, Rules.osmNotOSM, Rules.osmInvalidCoordinates,
        Rules.osmInvalidID, Rules.osmDuplicateElementID, Rules.osmMissingReferencedNode, Rules.osmIncompleteWay,
        Rules.osmMultipolygonInvalid, Rules.osmBBoxOutsideSource,
        Rules.osmWayOneNode, Rules.osmPOIOutsideBBox, Rules.osmPOIMissingName, Rules.osmDuplicatePOI, Rules.osmOpeningHoursUnreadable,
        Rules.osmExcessPrecision, Rules.osmLimitExceeded, Rules.osmPBFMalformed, Rules.osmUnsupportedVersion, Rules.osmUnexpectedElement,
        Rules.osmInvalidRelationMember,
    ]

    static let csv: [RuleDescription] = [
        Rules.csvEmptyFile, Rules.csvMissingHeader, Rules.csvEmptyColumnName, Rules.csvDuplicatedColumn,
        Rules.csvInvalidRowLength, Rules.csvUnterminatedQuote, Rules.csvStrayQuote, Rules.csvNewLineInValue,
        Rules.csvWhitespace, Rules.csvEmptyRow, Rules.csvTrailingCells, Rules.csvInvalidUTF8, Rules.csvUTF8BOM,
        Rules.csvUTF16, Rules.csvNulByte, Rules.csvMixedLineEndings, Rules.csvBareCarriageReturn,
        Rules.csvInvalidLineSeparator, Rules.csvMisspelledColumn, Rules.csvUnknownColumn,
        Rules.csvMissingRequiredColumn, Rules.csvMissingRequiredField, Rules.csvInvalidValue, Rules.csvTooManyRows,
        Rules.csvFileTooLarge, Rules.csvFieldTooLong, Rules.csvNonPrintableInID, Rules.csvTooManyFields,
    ]

    static let gtfs: [RuleDescription] = [
        Rules.gtfsInvalidArchive, Rules.gtfsFeedNotFound, Rules.gtfsFilesInSubfolder, Rules.gtfsFilesSplitAcrossSubfolders,
        Rules.gtfsUnsafeArchiveEntry, Rules.gtfsArchiveTooLarge,
        Rules.gtfsMissingRequiredFile, Rules.gtfsMissingCalendar, Rules.gtfsMisspelledFile, Rules.gtfsUnknownFile,
        Rules.gtfsDuplicateKey, Rules.gtfsForeignKeyViolation, Rules.gtfsDanglingParentStation, Rules.gtfsMissingAgencyID,
        Rules.gtfsCoordinateOutOfRange, Rules.gtfsPointNearOrigin, Rules.gtfsPointNearPole, Rules.gtfsPointOutsideBBox,
        Rules.gtfsStopWithoutLocation, Rules.gtfsMissingStopName, Rules.gtfsInvalidParentStation,
        Rules.gtfsStopWithoutStopTime, Rules.gtfsRouteNameMissing, Rules.gtfsRouteShortNameTooLong,
        Rules.gtfsDuplicateRouteName, Rules.gtfsRouteShortLongNameEqual, Rules.gtfsUnusableTrip, Rules.gtfsUnusedTrip,
        Rules.gtfsEmptyTimetable, Rules.gtfsArrivalBeforePreviousDeparture, Rules.gtfsOnlyArrivalOrDeparture,
        Rules.gtfsMissingTripEdge, Rules.gtfsTripRevisitsStop, Rules.gtfsDepartureBeforeArrival, Rules.gtfsTimepointWithoutTimes,
        Rules.gtfsLocationWithUnexpectedStopTime, Rules.gtfsInconsistentAgencyTimezone,
        Rules.gtfsDuplicateStopSequence, Rules.gtfsDecreasingStopTimeDistance, Rules.gtfsEqualStopTimeDistance,
        Rules.gtfsFastTravel, Rules.gtfsTripDistanceExceedsShapeDistance,
        Rules.gtfsTripDistanceExceedsShapeDistanceBelowThreshold,
        Rules.gtfsBlockOverlap, Rules.gtfsDecreasingShapeDistance, Rules.gtfsEqualShapeDistance,
        Rules.gtfsStopTooFarFromShape, Rules.gtfsDuplicateShapeSequence,
        Rules.gtfsUnusedShape, Rules.gtfsCalendarRangeOutOfOrder, Rules.gtfsFeedInfoRangeOutOfOrder,
        Rules.gtfsServiceNoActiveDay, Rules.gtfsNoServiceDates,
        Rules.gtfsExpiredCalendar, Rules.gtfsFeedExpiresSoon, Rules.gtfsInvalidHeadway, Rules.gtfsOverlappingFrequency,
        Rules.gtfsZipBomb, Rules.gtfsArchiveTooManyEntries,
    ]

    static let editorial: [RuleDescription] = [
        Rules.editorialDuplicateID, Rules.editorialUnknownReference, Rules.editorialUnreachable,
        Rules.editorialReferenceCycle, Rules.editorialCategoryWithoutPOI, Rules.editorialInvalidAction,
        Rules.editorialMissingTranslation, Rules.editorialRouteUnknownPOI, Rules.editorialRouteTooFewWaypoints,
        Rules.editorialRouteDuplicateSequence, Rules.editorialRouteWaypointOutsideBBox,
        Rules.editorialRouteImplausibleLeg, Rules.editorialInvalidWaypoint,
    ]

    static let copy: [RuleDescription] = [
        Rules.copySyntax, Rules.copyInvalidKey, Rules.copyUnknownLocale, Rules.copyMissingTranslation,
        Rules.copyExtraTranslation, Rules.copyPlaceholderMismatch, Rules.copyInvalidMessageSyntax,
        Rules.copyPluralMissingOther, Rules.copyPluralMissingCategory, Rules.copyPluralUnusedCategory,
        Rules.copyPaddedText, Rules.copyEmptyText, Rules.copyErrorWithoutAction, Rules.copyMissingRequiredKey,
    ]

    static let pack: [RuleDescription] = [Rules.packIOFailure, Rules.packEmpty, Rules.packRulesNotRun, Rules.packCacheIgnored]
}

extension CityFileLoader {
    /// Loads a city file (``CityFileLoader/load(_:knownRules:bag:)``), checking its `rules:` overrides against
    /// every catalogued rule.
    package static func load(_ path: String, bag: DiagnosticBag) -> City? {
        load(path, knownRules: RuleCatalog.codes, bag: bag)
    }
}
