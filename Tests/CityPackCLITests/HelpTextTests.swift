import ArgumentParser
import CityPackCLI
import Foundation
import Testing

/// `--help` reads as prose at any width (issue 33, point 10): a discussion's lines are joined in the source (a
/// trailing `\`), so ArgumentParser wraps whole paragraphs instead of keeping the source's own line breaks, which
/// cut sentences short in the middle of a terminal line.
@Suite struct HelpTextTests {
    /// Every command under `command`, itself included.
    static func commands(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { commands($0) }
    }

    /// Lines of the text before `USAGE:` that end well short of the width while the sentence goes on in the next
    /// line (it starts with a lower-case letter or a backquote).
    static func midSentenceBreaks(_ help: String, columns: Int) -> [String] {
        let head = help.components(separatedBy: "\nUSAGE:").first ?? ""
        let lines = head.components(separatedBy: "\n")
        var out: [String] = []
        for (i, line) in lines.enumerated() where i + 1 < lines.count {
            let next = lines[i + 1]
            guard !line.isEmpty, line.count < columns * 2 / 3, let first = next.first,
                first.isLowercase || first == "`", !line.hasSuffix(":")
            else { continue }
            out.append("\(line) ⏎ \(next)")
        }
        return out
    }

    @Test(arguments: [80, 120]) func discussionsWrapAsParagraphs(columns: Int) {
        var breaks: [String] = []
        for command in Self.commands(CityPackCommand.self) {
            let help = CityPackCommand.helpMessage(for: command, columns: columns)
            breaks += Self.midSentenceBreaks(help, columns: columns).map { "\(command._commandName): \($0)" }
        }
        #expect(breaks.isEmpty, "\(breaks.joined(separator: "\n"))")
    }

    /// Each option's default is stated once (issue 40): ArgumentParser appends `(default: N)` to an option with a
    /// default value, so help text that says "(default N)" too prints it twice. Checked per option entry (the
    /// lines from one `--flag` to the next, unwrapped at a wide width).
    @Test func everyDefaultIsStatedOnce() {
        var twice: [String] = []
        for command in Self.commands(CityPackCommand.self) {
            let help = CityPackCommand.helpMessage(for: command, columns: 400)
            let options = help.components(separatedBy: "\nOPTIONS:").dropFirst().joined()
            for entry in options.components(separatedBy: "\n  -") {
                let defaults = entry.components(separatedBy: "(default").count - 1
                if defaults > 1 { twice.append("\(command._commandName): -\(entry.trimmingCharacters(in: .whitespacesAndNewlines))") }
            }
        }
        #expect(twice.isEmpty, "options that state their default twice:\n\(twice.joined(separator: "\n"))")
    }
}
