import Foundation
import Testing

// @testable: CLIError is the command line's internal error type.
@testable import CityPackCLI

/// One typed CLI error, rendered once at the top as `citypack: error: <message>`, with its exit code.
@Suite struct CLIErrorTests {
    @Test func messagesAndExitCodes() {
        #expect(CLIError.noSuchCity("x").message == "no such city directory or file: x")
        #expect(CLIError.noSuchCity("x").exitCode == 66)
        #expect(CLIError.missingInput("m").exitCode == 66)
        #expect(CLIError.usage("m").exitCode == 64)
        #expect(CLIError.dataErrors("m").exitCode == 1)
        #expect(CLIError.ioFailure("m").exitCode == 74)
        #expect(CLIError.internalError("boom").message == "internal error: boom")
        #expect(CLIError.internalError("boom").exitCode == 70)
    }

    /// `build`, `check` and `build --watch` of a missing city print the one line once and exit 66.
    @Test(arguments: [["build"], ["check"], ["build", "--watch"]])
    func aMissingCityIsRenderedOnce(_ command: [String]) {
        let (status, stdout, stderr) = CityPackCommand.runInProcess(command + ["no/such/city-dir"])
        #expect(status == 66)
        #expect(stdout.isEmpty)
        #expect(stderr == "citypack: error: no such city directory or file: no/such/city-dir\n")
    }
}
