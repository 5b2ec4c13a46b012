extension FilesStore {
    package struct Limits: Sendable {
        /// Records per pull page.
        package var maximumPullRecords = 2_000
        /// Approximate encoded bytes per pull page.
        package var maximumPullBytes = 1 << 20
        /// Records per push.
        package var maximumPushRecords = 5_000
        /// User ledgers kept open at once; the least recently used is closed beyond this.
        package var openLedgers = 512
        /// Threads for blocking file I/O (reads, appends, fsync): fsyncs of different users overlap.
        package var ioThreads = 8
        /// Milliseconds between writes of one user's activity file.
        package var activityInterval: Int64 = 5_000
        /// `serve --max-user-bytes`: off unless set.
        package var userSize = UserSizeLimit()
        package init() {}
    }
}
