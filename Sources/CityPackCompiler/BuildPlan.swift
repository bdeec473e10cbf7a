/// The stages of a build, planned before anything runs (printed by `--dry-run`/`-v`).
public struct BuildPlan: Sendable, CustomStringConvertible {
    /// One stage: its name, what it reads and what it produces.
    public struct Stage: Sendable {
        public var name: String
        public var inputs: [String]
        public var outputs: [String]
    }

    public var stages: [Stage]

    public var description: String {
        stages.enumerated().map { i, stage in
            "\(i + 1). \(stage.name): \(stage.inputs.joined(separator: ", ")) → \(stage.outputs.joined(separator: ", "))"
        }.joined(separator: "\n")
    }
}
