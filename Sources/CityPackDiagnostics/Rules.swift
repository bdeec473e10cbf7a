/// The namespace of every rule CityPack can report, as ``RuleDescription`` values. Codes are stable; add, never
/// rename.
///
/// Each rule's description is an `extension Rules` next to the code that reports it: reading rules beside their
/// readers in CityPackIngest (`CSV/CSVRules.swift`, `OSM/OSMRules.swift`, …), rules over the model in their own
/// files in CityPackValidate (`Rules/<Kind>/<Name>Rule.swift`), and here only those reported by more than one
/// stage (`Rules+SharedStages.swift`, `Rules+Pack.swift`). The compiler's `RuleCatalog` lists them all, in order.
public enum Rules {}
