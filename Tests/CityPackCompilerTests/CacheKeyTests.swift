import CityPackCache
import CityPackEmit
import Foundation
import Testing

// @testable: cache keys are internal to the compiler.
@testable import CityPackCompiler

/// Keys are made from what a step declares: every stored property of an options value counts.
@Suite struct CacheKeyTests {
    static func key(_ options: EmitOptions) -> String {
        var k = CacheKey("emit")
        k.addFields(of: options, label: "release", skipping: StageWork.releaseNotInKey)
        return k.hex
    }

    /// Each field of `EmitOptions` changes the emit key. A field added to `EmitOptions` fails this test until it
    /// has a variant here (or is named in `StageWork.releaseNotInKey` with a reason).
    @Test func everyEmitOptionChangesTheKey() throws {
        let base = EmitOptions()
        var variants: [String: EmitOptions] = [:]
        func variant(_ name: String, _ change: (inout EmitOptions) -> Void) {
            var o = base
            change(&o)
            variants[name] = o
        }
        variant("keepVersions") { $0.keepVersions = 5 }
        variant("signingKey") { $0.signingKey = .generate() }
        variant("keepVersionsExplicit") { $0.keepVersionsExplicit = true }
        variant("measureSizes") { $0.measureSizes = true }
        variant("testStepDelayMicroseconds") { $0.testStepDelayMicroseconds = 7 }
        variant("writeCatalog") { $0.writeCatalog = false }
        let fields = Set(Mirror(reflecting: base).children.compactMap(\.label)).subtracting(StageWork.releaseNotInKey)
        #expect(fields == Set(variants.keys), "every EmitOptions field needs a variant here")
        for (name, options) in variants {
            #expect(Self.key(options) != Self.key(base), "\(name) does not change the key")
        }
        // Two signing keys give two keys; the same options give the same key.
        var a = base, b = base
        a.signingKey = .generate()
        b.signingKey = .generate()
        #expect(Self.key(a) != Self.key(b))
        #expect(Self.key(a) == Self.key(a))
        // The key holds the signing key's id, never its secret bytes.
        #expect(!CacheKey.fieldText(a).contains("raw"))
    }
}
