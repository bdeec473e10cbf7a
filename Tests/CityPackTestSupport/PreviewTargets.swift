/// Request targets for the `citypack preview` server's tests (the guard on its own in CityPackPreviewTests, the
/// running server in CityPackCLITests).
public enum PreviewTargets {
    /// Targets that try to leave the served folders, as sent by hand or by tools: dot segments raw and
    /// percent-encoded (once and twice, upper and lower case), backslashes, NUL, absolute-form and `//` targets.
    public static let traversals = [
        "/../etc/passwd", "/pack/../../etc/passwd", "/pack/web/../../../etc/passwd", "/%2e%2e/etc/passwd",
        "/%2e%2e%2fetc%2fpasswd", "/pack/%2e%2e%2f%2e%2e%2fcity.yaml", "/pack/..%2f..%2fetc/passwd", "/pack/%2E%2E/%2E%2E/etc/passwd",
        "/pack/%252e%252e%252f%252e%252e%252fetc%252fpasswd", "/pack/..\\..\\etc\\passwd", "/pack/%5c..%5c..%5cetc%5cpasswd",
        "/pack/manifest.json%00.html", "/pack/web/%00", "/pack/.lock", "/pack/./manifest.json", "//etc/passwd",
        "http://127.0.0.1/etc/passwd", "/etc/passwd", "/pack//etc/passwd", "/pack/%2fetc%2fpasswd", "/..", "/pack/..",
    ]
}
