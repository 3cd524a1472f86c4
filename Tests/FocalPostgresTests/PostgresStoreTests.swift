import FocalCore
import FocalDelivery
import FocalPostgres
import FocalPostgresTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// Several processes sharing one database: each `PostgresStore` here stands for one
/// `focal serve` instance. Needs FOCAL_TEST_POSTGRES_URL (`./Scripts/test` sets it).
@Suite struct PostgresStoreTests {
    @Test(arguments: [
        ("mysql://u@h/db", "scheme"), ("postgres://h:5432/db", "no user"), ("postgres://u@h:5432/", "one database"),
        ("postgres://u@h:99999/db", "port"), ("postgres://u@h/db?sslmode=verify_full", "sslmode 'verify_full'"),
        ("postgres://u@h/db?sslmode=prefer", "falls back to plain text"), ("postgres://u@h/db?sslmod=require", "parameter 'sslmod'"),
        ("postgres://u@h/db?sslmode=require&sslmode=disable", "twice"), ("postgres://u@h/db?sslmode=", "no value"),
        ("postgres://u@h/db?sslmode=disable&sslrootcert=/ca.pem", "of no use"),
        ("postgres://u@h/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem", "'/nonexistent/ca.pem' cannot be read"),
    ])
    func aBadURLIsAnErrorSayingWhatIsWrong(url: String, problem: String) {
        #expect {
            _ = try PostgresStore(url: url)
        } throws: { error in
            "\(error)".contains(problem) && "\(error)".contains("expected postgres://")
        }
    }

    @Test func aPasswordNeverAppearsInTheStoreURL() throws {
        let store = try PostgresStore(url: "postgres://focal:secret@127.0.0.1:5432/focal")
        #expect(store.url == "postgres://focal:***@127.0.0.1:5432/focal")
        #expect {
            _ = try PostgresStore(url: "postgres://focal@127.0.0.1:5432/focal?password=secret")
        } throws: { error in
            "\(error)".contains("password=***") && !"\(error)".contains("secret")
        }
    }

    @Test func anUnreachableServerIsAnErrorNotAHang() async throws {
        // Port 1 on loopback: nothing listens there; the connection is refused at once.
        await #expect(throws: PostgresStoreError.self) {
            try await TestPostgres.withStore(url: "postgres://focal@127.0.0.1:1/focal") { store in
                _ = try await PostgresOutbox(store: store)
            }
        }
    }

    @Test func instancesCreatingTheTablesAtOnceAllSucceedAndShareOneStoreID() async throws {
        let url = try await TestPostgres.freshDatabase()
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask { try await TestPostgres.withStore(url: url) { try await PostgresOutbox(store: $0).storeID } }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids.count == 1 && !ids.first!.isEmpty)
    }

    @Test func twoInstancesAppendingAtOnceGetUniqueOrderedMessageIDs() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { one in
            try await TestPostgres.withStore(url: url) { two in
                let outboxes = [try await PostgresOutbox(store: one), try await PostgresOutbox(store: two)]
                try await outboxes[0].register(destinations: ["a"])
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, outbox) in outboxes.enumerated() {
                        group.addTask {
                            for round in 0..<20 {
                                try await outbox.append(numbered(7, from: index * 1000 + round * 7))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let entries = try await outboxes[1].nextBatch(for: "a", limits: BatchLimits(maxCount: 1000, maxBytes: .max))
                #expect(entries.count == 280)
                #expect(Set(entries.map(\.messageID)).count == 280)
                #expect(entries.map(\.sequence) == Array(1...280))
                #expect(try await outboxes[0].totals().count == 280)
            }
        }
    }

    @Test func oneInstanceAtATimeDeliversToADestination() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { one in
            let first = try await PostgresOutbox(store: one)
            try await first.register(destinations: ["a"])
            try await first.append(numbered(3, from: 0))
            try await TestPostgres.withStore(url: url) { two in
                let second = try await PostgresOutbox(store: two)
                try await second.append(numbered(2, from: 3))
                #expect(try await first.nextBatch(for: "a", limits: BatchLimits()).count == 5, "the first takes the lock")
                #expect(try await second.nextBatch(for: "a", limits: BatchLimits()).isEmpty, "the second may not")
                #expect(try await second.pendingCount(for: "a") == 0, "and owes nothing")
                #expect(try await first.pendingCount(for: "a") == 5)
                // The first instance stops delivering to "a": the second takes over.
                try await first.forget(destination: "a")
                try await second.register(destinations: ["a"])
                try await second.append(numbered(1, from: 5))
                #expect(try await second.nextBatch(for: "a", limits: BatchLimits()).count == 1)
            }
        }
    }

    @Test func aDeadInstancesDestinationsAreTakenOver() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await TestPostgres.withStore(url: url) { survivor in
            let outbox = try await PostgresOutbox(store: survivor)
            try await TestPostgres.withStore(url: url) { dying in
                let other = try await PostgresOutbox(store: dying)
                try await other.register(destinations: ["a"])
                try await other.append(numbered(4, from: 0))
                #expect(try await other.nextBatch(for: "a", limits: BatchLimits()).count == 4)
                #expect(try await outbox.nextBatch(for: "a", limits: BatchLimits()).isEmpty)
            }
            // The dying store's connections are closed; wait (blocking, no polling) until the
            // server has let its lock go, then the survivor delivers everything it left.
            try await waitUntilUnlocked("a", url: url)
            #expect(numbers(try await outbox.nextBatch(for: "a", limits: BatchLimits())) == [0, 1, 2, 3])
        }
    }
}

/// Results numbered from `start`.
func numbered(_ count: Int, from start: Int) -> [ResultRecord] {
    (start..<(start + count)).map {
        ResultRecord(resultJSON: "{\"n\":\($0)}", event: "did-select", path: "/list/cell", time: 1_732_200_000_000)
    }
}

/// The `n` of each entry's result.
func numbers(_ entries: [OutboxEntry]) -> [Int] {
    entries.map { Int($0.result.resultJSON.dropFirst(5).dropLast())! }
}

/// Returns once nobody holds `destination`'s delivery lock: takes it with the blocking
/// `pg_advisory_lock` on a connection of its own, then lets it go.
func waitUntilUnlocked(_ destination: String, url: String) async throws {
    let components = URLComponents(string: url)!
    let logger = Logger(label: "focal.tests.postgres")
    let connection = try await PostgresConnection.connect(
        configuration: PostgresConnection.Configuration(
            host: components.host!, port: components.port ?? 5432, username: components.user!, password: nil,
            database: String(components.path.dropFirst()), tls: .disable),
        id: 2, logger: logger)
    let key = "\(0x466F_6361), hashtext(\(destination.debugDescription.replacingOccurrences(of: "\"", with: "'")))"
    try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(\(key))"), logger: logger)
    try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(key))"), logger: logger)
    try await connection.close()
}
