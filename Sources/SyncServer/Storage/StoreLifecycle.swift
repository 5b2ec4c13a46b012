import ServiceLifecycle

/// How a store runs while it is open, for both of its faces (`SyncStorage`, `SyncStoreAdministration`).
/// Long-running work is a `Service` (the PostgreSQL store's connection pool), never a task the store
/// starts itself: `serve` runs `services` in its service group ahead of the HTTP server, so they
/// start before it and stop after it (`SyncHTTPServer.serve`); the `server …` commands and tests run
/// them around one piece of work with `whileRunning`.
package protocol StoreLifecycle: Sendable {
    /// What must run while the store is in use; empty for the files store.
    var services: [any Service] { get }
    /// Readies the store once `services` run (PostgreSQL: reaches the database and migrates the
    /// schema); throws, as one sentence, when it cannot be used.
    func start() async throws
    /// Releases files and locks (connections go when `services` stop).
    func close() async
}

extension StoreLifecycle {
    package var services: [any Service] { [] }
    package func start() async throws {}

    /// Runs `services`, starts the store, runs `body`, then closes the store and stops the
    /// services, also when `body` throws.
    package func whileRunning<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services {
                group.addTask { try await service.run() }
            }
            defer { group.cancelAll() }
            do {
                try await start()
                let result = try await body()
                await close()
                return result
            } catch {
                await close()
                throw error
            }
        }
    }
}

/// A service that runs only once its store has started (`serve`'s HTTP server: no request before
/// the store can answer it). A start that throws ends the service group with that error.
package struct AfterStoreStart: Service {
    let store: any StoreLifecycle
    let service: any Service

    package init(store: any StoreLifecycle, service: any Service) {
        (self.store, self.service) = (store, service)
    }

    package func run() async throws {
        try await store.start()
        try await service.run()
    }
}
