import Foundation

/// Where one city of a catalog stands on this device — the single state an app's offline screen shows
/// (docs/RELEASES.md, "The pack library"). The JavaScript reader has the same states under the same raw names
/// (``kind``).
public enum PackState: Sendable, Equatable {
    /// Listed in the catalog, nothing on disk.
    case notDownloaded
    /// Waiting for a download slot (``PackLibrary/Configuration/maxConcurrentDownloads``).
    case queued
    /// Fetching: `bytes` received so far of `total` to fetch (the delta or the full pack), in bytes.
    case downloading(bytes: Int64, total: Int64)
    /// Verifying and switching the new version in.
    case applying
    /// Installed at data version `version`, and the catalog offers nothing newer.
    case onDisk(version: Int)
    /// Installed at `version`; the catalog offers `update`, which downloads `updateBytes` bytes (the delta when it
    /// is smaller than the full pack).
    case onDiskOutOfDate(version: Int, update: Int, updateBytes: Int)
    /// The last operation failed for `reason`; `installedVersion` is still installed and opens (nil: none).
    case failed(reason: PackFailure, installedVersion: Int?)
    /// A download of data version `version` stopped before it finished (the app was closed or killed, the
    /// connection dropped): `bytes` of `total` are kept on disk and ``PackLibrary/download(_:)`` goes on from
    /// there (`Range` + `If-Range`). `installedVersion` is still installed and opens (nil: none).
    case paused(version: Int, bytes: Int64, total: Int64, installedVersion: Int?)

    /// The state's name shared with the JavaScript reader: `not_downloaded`, `queued`, `downloading`, `applying`,
    /// `on_disk`, `on_disk_out_of_date`, `failed` or `paused`.
    public var kind: String {
        switch self {
        case .notDownloaded: "not_downloaded"
        case .queued: "queued"
        case .downloading: "downloading"
        case .applying: "applying"
        case .onDisk: "on_disk"
        case .onDiskOutOfDate: "on_disk_out_of_date"
        case .failed: "failed"
        case .paused: "paused"
        }
    }

    /// The data version installed on the device in this state, when known (nil while it is being replaced).
    public var installedVersion: Int? {
        switch self {
        case .onDisk(let version), .onDiskOutOfDate(let version, _, _): version
        case .failed(_, let version): version
        case .paused(_, _, _, let version): version
        default: nil
        }
    }
}

/// Why a download, an update or a catalog refresh failed. ``reason`` maps one to one to the copy's error classes
/// (`download_error.<reason>.message` / `.action` in templates/copy).
public struct PackFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error class, with the raw names the JavaScript reader uses.
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// No connection, or the connection was lost and the retries ran out.
        case offline
        /// The server stopped sending (no bytes for ``URLSessionTransport/stallTimeout``) and the retries ran out.
        case timeout
        /// The server answered with an HTTP error (``PackFailure/status``).
        case serverError = "server_error"
        /// Too little free space for the download and what it unpacks to (``PackFailure/bytesNeeded``).
        case notEnoughSpace = "not_enough_space"
        /// The bytes differ from what the catalog and manifest promise: wrong size or SHA-256, corrupt gzip, a delta
        /// that does not apply, a body re-encoded on the way (the message names the header).
        case damaged
        /// A signature is missing, invalid or by an untrusted key.
        case tampered
        /// The offered data version is older than one already installed or seen (a rollback or a stale mirror).
        case olderRelease = "older_release"
        /// The pack's format is newer than this reader: update the app.
        case unsupported
    }

    /// The error class.
    public var reason: Reason
    /// What happened, in English, for logs (apps show the copy of ``copyKey``).
    public var message: String
    /// The HTTP status for ``Reason/serverError``.
    public var status: Int?
    /// Bytes the operation needs on disk, for ``Reason/notEnoughSpace``.
    public var bytesNeeded: Int64?

    package init(_ reason: Reason, _ message: String, status: Int? = nil, bytesNeeded: Int64? = nil) {
        self.reason = reason
        self.message = message
        self.status = status
        self.bytesNeeded = bytesNeeded
    }

    /// The copy key prefix of this failure: `download_error.<reason>` (append `.message` or `.action`).
    public var copyKey: String { "download_error.\(reason.rawValue)" }

    public var description: String { "\(reason.rawValue): \(message)" }
}

/// One state change a ``PackLibrary`` reports through ``PackLibrary/states``.
public struct PackStateChange: Sendable, Equatable {
    /// The city id.
    public var city: String
    /// Its new state.
    public var state: PackState

    package init(city: String, state: PackState) {
        self.city = city
        self.state = state
    }
}

extension PackFailure {
    /// The failure class of a `PackError` met while verifying or installing a download.
    init(_ error: PackError) {
        switch error {
        case .signatureMissing, .signatureInvalid, .untrustedKey, .wrongCity:
            self.init(.tampered, error.description)
        case .rollback:
            self.init(.olderRelease, error.description)
        case .unsupportedFormatVersion:
            self.init(.unsupported, error.description)
        case .io(_, let message) where message.contains("No space left"):
            self.init(.notEnoughSpace, error.description)
        default:
            self.init(.damaged, error.description)
        }
    }
}
