import CityPackCLI

/// The `citypack` executable: a thin shell over the `CityPackCLI` library.
@main
enum Entrypoint {
    static func main() {
        CityPackCommand.installCrashHandler()
        CityPackCommand.main()
    }
}
