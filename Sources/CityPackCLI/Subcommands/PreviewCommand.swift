import ArgumentParser
import CityPackBuild
import CityPackCompiler
import CityPackPreview
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `citypack preview <city>`: builds the city as `build` does, serves a live page of it on 127.0.0.1, and
/// rebuilds on every change of its sources, city file or templates; the page follows each build by itself.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Build a city and show it live in a browser: map, problems, search and nearby; rebuilt on every change.",
        discussion: """
            Builds into <output>/<city>/ as `build` does and serves, on 127.0.0.1 only, a page with the city's map \
            (POIs by category, stops and lines, walking routes, the bounding box), every diagnostic with its source \
            excerpt (click one to see it on the map), and search and nearby answered by clients/web/citypack.js \
            from the web flavour just built. Sources, the city file and the templates are watched: each change \
            rebuilds and the page updates itself, keeping its view. A build with errors writes no pack, so the page \
            keeps the last good pack beside the new problems. Stops on Ctrl-C or SIGTERM (exit 0).
            Exit codes: 64 usage, 66 city folder or city file missing, 74 the port cannot be listened on.
            """)

    @Argument(help: "City directory (holding city.yaml) or city file.")
    var city: String

    @Option(name: [.short, .long], help: "Output root folder; the city is built into <output>/<city>/.")
    var output: String = "outputs"

    @Option(name: .long, help: "Port on 127.0.0.1; 0 lets the system choose a free one.")
    var port: Int = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() throws {
        try BuildRunner.guarded {
            guard let root = BuildRunner.cityRoot(city) else { throw CLIError.noSuchCity(city) }
            // A page that goes away mid-write must not end the process (FlyingFox sends with MSG_NOSIGNAL too).
            signal(SIGPIPE, SIG_IGN)
            let templates = ToolEnvironment.templates
            let watch = CityWatch(
                city: city, root: root, templates: templates, diagnostics: try DiagnosticOptions.parse([]), output: output,
                release: ReleaseOptions(keepVersions: 2))
            let hub = PreviewHub()
            let fallbackID = (SourceWatcher.absolute(root) as NSString).lastPathComponent
            var lastGood: CityWatch.Round?
            var listening = false
            let excerpts = ExcerptCache()
            let reader = PreviewPage.locateReader(templates: TemplateLocator.locate(explicit: templates, cityPath: city).folder)
            try watch.run(onBuild: { round in
                if round.packWritten { lastGood = round }
                let folder = ReportWriter.folder(output: output, city: round.build.city?.id ?? lastGood?.build.city?.id ?? fallbackID)
                hub.packFolder = folder
                let onDisk = FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("manifest.json"))
                let state = PreviewState.make(round: round, lastGood: lastGood, packOnDisk: onDisk, fallbackID: fallbackID, excerpts: excerpts)
                hub.publish(state.json(), build: round.number)
                guard !listening else { return }
                listening = true
                do {
                    let chosen = try PreviewServer.start(port: UInt16(port), hub: hub, readerPath: reader)
                    if reader == nil {
                        Terminal.err("citypack: warning: clients/web/citypack.js not found above the templates, the working directory or citypack; the page cannot open the pack\n")
                    }
                    Terminal.out("Previewing \(state.city.name) at http://127.0.0.1:\(chosen)/\n")
                } catch {
                    let failure = CLIError.ioFailure("cannot listen on 127.0.0.1:\(port): \(error)")
                    Terminal.error(failure)
                    quit(failure.exitCode)
                }
            })
        }
    }
}

/// Ends the process (the C library's `exit`, which `ParsableCommand.exit` hides inside the command).
private func quit(_ code: Int32) -> Never { exit(code) }
