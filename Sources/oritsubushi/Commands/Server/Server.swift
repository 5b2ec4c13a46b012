import ArgumentParser

/// `oritsubushi server …`: run the sync server and operate its store. Every subcommand but
/// `serve` lives in its own `Server<Name>.swift`; all take `--data DIR` or `--store URL`
/// (`StoreOptions`) and work while `serve` runs on the same store.
struct Server: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the sync server and operate its store: users, tokens, integrity, export and deletion.",
        discussion: """
            Every subcommand takes the store as --data DIR (the files store) or --store \
            postgres://USER@HOST:PORT/DB (PostgreSQL; default $ORITSUBUSHI_STORE), and works while \
            'serve' runs on it. See docs/server.md.
            """,
        subcommands: [Serve.self, AddUser.self, AddToken.self, RevokeToken.self, Users.self, Verify.self,
                      Repair.self, Export.self, DeleteUser.self, Pair.self])
}
