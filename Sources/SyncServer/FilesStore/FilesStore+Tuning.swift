extension FilesStore {
    /// What only the files store has to tune (the limits a client meets are `SyncLimits`).
    package struct Tuning: Sendable {
        /// User ledgers kept open at once; the least recently used is closed beyond this.
        package var openLedgers = 512
        /// Threads for blocking file I/O (reads, appends, fsync): fsyncs of different users overlap.
        package var ioThreads = 8
        /// Milliseconds between writes of one user's activity file.
        package var activityInterval: Int64 = 5_000
        /// Called after each step of an account's conversion (`AccountConversion.Step`): the
        /// crash tests kill the server there (a debug build's `serve` reads
        /// ORITSUBUSHI_KILL_AT_CONVERSION); nil in production.
        package var conversionHook: (@Sendable (AccountConversion.Step) -> Void)?
        package init() {}
    }
}
