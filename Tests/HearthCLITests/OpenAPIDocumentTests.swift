import Foundation
import HearthEngine
import HearthService
import HearthStore
import Logging
import XCTest

/// Issue 35: `docs/openapi.yaml` describes the home service's routes, all of them and no others.
final class OpenAPIDocumentTests: XCTestCase {
    /// "METHOD /path" for every operation in the document (paths at two spaces, methods at four).
    static func documentedOperations() throws -> Set<String> {
        let text = try String(contentsOf: CLITests.root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        var operations: Set<String> = [], inPaths = false, path: String?
        for line in text.components(separatedBy: "\n") {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:"; path = nil; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "patch", "delete"].contains(String(method)) { operations.insert("\(method.uppercased()) \(path)") }
            }
        }
        return operations
    }

    func testEveryRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let text = try String(contentsOf: CLITests.root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("openapi: 3.1"), "an OpenAPI 3.1 document")
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Date())
        let assistant = try Assistant(store: store, grammarDirectory: CLITests.root.appendingPathComponent("Intents"), timeSource: .system)
        let router = Routes(engine: Engine(assistant: assistant, logger: Logger(label: "test"))).router()
        let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
        let documented = try Self.documentedOperations()
        XCTAssertFalse(routed.isEmpty)
        XCTAssertEqual(routed.subtracting(documented), [], "routes missing from docs/openapi.yaml")
        XCTAssertEqual(documented.subtracting(routed), [], "documented operations with no route")
    }
}
