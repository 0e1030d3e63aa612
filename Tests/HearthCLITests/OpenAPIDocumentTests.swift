import Foundation
import HearthEngine
import HearthService
import HearthStore
import Logging
import XCTest

/// Issue 35: `docs/openapi.yaml` describes the home service's routes, all of them and no others.
final class OpenAPIDocumentTests: XCTestCase {
    /// "METHOD /path" for every operation in the document (paths at two spaces, methods at four).
    static func documentedOperations() throws -> Set<String> { try operations().all }

    /// Every documented operation, and those that declare `security: []` (no device token).
    static func operations() throws -> (all: Set<String>, open: Set<String>) {
        let text = try String(contentsOf: CLITests.root.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        var operations: Set<String> = [], open: Set<String> = [], inPaths = false, path: String?, operation: String?
        for line in text.components(separatedBy: "\n") {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:"; path = nil; operation = nil; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast()); operation = nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "patch", "delete"].contains(String(method)) {
                    operation = "\(method.uppercased()) \(path)"
                    operations.insert(operation!)
                }
            } else if let operation, line == "      security: []" {
                open.insert(operation)
            }
        }
        return (operations, open)
    }

    /// One door over HTTP: every route not documented as open answers 401 without a device token
    /// (and with a forged one), so a new route that forgets `authenticate` fails here.
    func testEveryRouteNotDocumentedAsOpenNeedsADeviceToken() throws {
        let (all, open) = try Self.operations()
        XCTAssertEqual(open.intersection(["GET /healthz", "GET /metrics"]).count, 2, "\(open)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-door-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("family.sqlite").path, clock = directory.appendingPathComponent("clock").path
        XCTAssertEqual(try CLITests.execute(["init", "--demo", "--db", database, "--now", HomeServiceTests.start]).status, 0)
        try HomeServiceTests.start.write(toFile: clock, atomically: true, encoding: .utf8)
        let server = try HomeServiceTests.Server(database: database, clockFile: clock)
        let guarded = all.subtracting(open).sorted()
        XCTAssertGreaterThanOrEqual(guarded.count, 5)
        var failures = 0
        for operation in guarded {
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            // A path parameter gets a made-up value: the token is checked before anything is looked up.
            let path = parts[1].replacingOccurrences(of: #"\{[^}]+\}"#, with: "x1", options: .regularExpression)
            for token in [nil, "hth_forged"] as [String?] {
                let response = try server.client.request(parts[0], path, token: token, json: parts[0] == "POST" ? [:] : nil)
                // After 10 failures in a minute the address is rate-limited: 429, still refused.
                XCTAssertEqual(response.status, failures < 10 ? 401 : 429, "\(operation) with \(token ?? "no token"): \(response.text)")
                failures += 1
            }
        }
        XCTAssertEqual(server.terminate(), 0)
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
