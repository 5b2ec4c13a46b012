import ArgumentParser

/// `oritsubushi repair`, also spelt `verify --repair` (kept for existing scripts); both run
/// `RepairRun`.
struct Repair: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Repair damaged segments from a healthy replica (--from DIR) or a sync server (--server URL).",
        discussion: """
            The first damaged segment and every later one are moved aside into \
            quarantine/<UTC time>/ in the ledger directory (never deleted), their events are \
            fetched again, and the projection is rebuilt. Nothing changes unless the source has \
            every event the damaged segments held (else exit 65). An interrupted repair is \
            finished by running it again. 'verify --repair' is the same command. Exit codes: \
            0 repaired or nothing to repair, 65 not repairable, 66 no ledger, 69 server \
            unreachable, 75 locked, 77 token refused.
            """)

    @OptionGroup var options: LedgerOptions
    @OptionGroup var source: RepairSource
    @Flag(help: "Print the summary as JSON.") var json = false

    func validate() throws { try source.check(spelling: "repair") }

    func run() async throws { try await RepairRun(options: options, source: source, json: json).run() }
}
