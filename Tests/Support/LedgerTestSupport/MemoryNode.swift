/// One inode of a `CrashableFileSystem`: a file with its current and last-synced bytes, or a
/// directory with its current and last-synced entries. Guarded by the file system's lock.
final class MemoryNode {
    let isDirectory: Bool
    var data: [UInt8] = []
    var synced: [UInt8] = []
    var children: [String: MemoryNode] = [:]
    var syncedChildren: [String: MemoryNode] = [:]

    init(file: Void) { isDirectory = false }
    init(directory: Void) { isDirectory = true }

    func lookup(_ components: [String]) -> MemoryNode? {
        var node = self
        for name in components {
            guard node.isDirectory, let next = node.children[name] else { return nil }
            node = next
        }
        return node
    }

    /// Bytes held by the files reachable now.
    var usedBytes: Int {
        isDirectory ? children.values.reduce(0) { $0 + $1.usedBytes } : data.count
    }

    /// A deep copy of both states. Nodes reachable under several names (a file renamed after
    /// its old entry was synced) stay one node in the copy.
    func copy() -> MemoryNode {
        var copies: [ObjectIdentifier: MemoryNode] = [:]
        return copy(&copies)
    }

    private func copy(_ copies: inout [ObjectIdentifier: MemoryNode]) -> MemoryNode {
        if let done = copies[ObjectIdentifier(self)] { return done }
        let node = isDirectory ? MemoryNode(directory: ()) : MemoryNode(file: ())
        copies[ObjectIdentifier(self)] = node
        node.data = data
        node.synced = synced
        for (name, child) in children { node.children[name] = child.copy(&copies) }
        for (name, child) in syncedChildren { node.syncedChildren[name] = child.copy(&copies) }
        return node
    }

    /// What of this node survives a crash: a tree in which everything is synced.
    func survivor(_ options: CrashOptions, generator: inout SeededGenerator?) -> MemoryNode {
        var survivors: [ObjectIdentifier: MemoryNode] = [:]
        return survivor(options, generator: &generator, survivors: &survivors)
    }

    private func survivor(_ options: CrashOptions, generator: inout SeededGenerator?,
                          survivors: inout [ObjectIdentifier: MemoryNode]) -> MemoryNode {
        if let done = survivors[ObjectIdentifier(self)] { return done }
        if isDirectory {
            let node = MemoryNode(directory: ())
            survivors[ObjectIdentifier(self)] = node
            let entries = options.keepUnsyncedEntries ? children : syncedChildren
            // Sorted, so that a seeded random prefix is the same on every run.
            for name in entries.keys.sorted() {
                node.children[name] = entries[name]!.survivor(options, generator: &generator, survivors: &survivors)
            }
            node.syncedChildren = node.children
            return node
        }
        let node = MemoryNode(file: ())
        survivors[ObjectIdentifier(self)] = node
        var kept = synced
        // Only appends since the last sync can partly survive; anything else reverts to it.
        if data.count > synced.count, data.starts(with: synced) {
            let unsynced = data.count - synced.count
            let keep: Int
            switch options.unsyncedData {
            case .drop: keep = 0
            case .keep: keep = unsynced
            case .keepRandomPrefix: keep = Int.random(in: 0...unsynced, using: &generator!)
            }
            kept = Array(data.prefix(synced.count + keep))
        } else if options.unsyncedData == .keep {
            kept = data
        }
        node.data = kept
        node.synced = kept
        return node
    }

    func collect(prefix: String, into result: inout [String: [UInt8]]) {
        if isDirectory {
            result[prefix + "/"] = []
            for (name, child) in children { child.collect(prefix: prefix + "/" + name, into: &result) }
        } else {
            result[prefix] = data
        }
    }
}
