import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// A store from before projects gains the outbox's project column (the contract tests of
/// FocalDeliveryTests check the column on every store).
/// Needs FOCAL_TEST_POSTGRES_URL (`./Scripts/test` sets it).
@Suite struct PostgresProjectTests {
    static func result(_ n: Int, session: String?, index: Int64?, project: String?) -> ResultRecord {
        ResultRecord(
            resultJSON: "{\"n\":\(n)}", event: "tap", path: "/app", time: 1, session: session, sessionIndex: index, project: project)
    }

    @Test func aStoreFromBeforeProjectsGainsTheColumnAndItsResultsHaveNoProject() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            try await outbox.register(destinations: ["d"])
            try await outbox.append([Self.result(0, session: "u1", index: 0, project: "shop")])
        }
        // Take the store back to before projects.
        let components = try #require(URLComponents(string: url))
        let logger = Logger(label: "focal.tests.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: components.host!, port: components.port ?? 5432, username: components.user!, password: components.password,
                database: String(components.path.dropFirst()), tls: .disable),
            id: 3, logger: logger)
        try await connection.query("ALTER TABLE focal_outbox_result DROP COLUMN project", logger: logger)
        try await connection.query("ALTER TABLE focal_outbox_dead_letter DROP COLUMN project", logger: logger)
        try await connection.close()
        try await TestPostgres.withStore(url: url) { store in
            let outbox = try await PostgresOutbox(store: store)
            try await outbox.append([Self.result(1, session: "u1", index: 1, project: "shop")])
            let entries = try await outbox.nextBatch(for: "d", limits: BatchLimits())
            #expect(entries.map(\.result.project) == [nil, "shop"])
        }
    }
}
