import Foundation

// folder-embedder FOLDER OUTPUT TYPE: writes OUTPUT, a Swift source that embeds every file under
// FOLDER (links followed, names starting with "." left out) as `TYPE.files`, so that a copied
// executable carries them. Run by the EmbedFolders build plugin whenever one of the files changes
// (Plugins/EmbedFolders); never by hand. The bytes are written as base64 in string literals,
// which the compiler reads at once (an array literal of a million numbers takes minutes).

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: folder-embedder FOLDER OUTPUT TYPE\n".utf8))
    exit(64)
}
let folder = URL(fileURLWithPath: arguments[1]).standardizedFileURL
let output = URL(fileURLWithPath: arguments[2])
let typeName = arguments[3]

/// Every file under `directory`, as (path relative to the folder, URL), links followed.
func files(in directory: URL, prefix: String) throws -> [(String, URL)] {
    var found: [(String, URL)] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where !name.hasPrefix(".") {
        let url = directory.appendingPathComponent(name).resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
        if isDirectory.boolValue {
            found += try files(in: url, prefix: prefix + name + "/")
        } else {
            found.append((prefix + name, url))
        }
    }
    return found
}

do {
    let entries = try files(in: folder, prefix: "").sorted { $0.0 < $1.0 }
    var source = """
        // Generated at build time by Tools/folder-embedder (the EmbedFolders plugin) from
        // \(folder.lastPathComponent)/. Do not edit; change the folder's files and build.
        import Foundation

        extension \(typeName) {
            /// Every file of \(folder.lastPathComponent)/ by its path relative to it, sorted, with its bytes.
            package static let files: [(path: String, bytes: [UInt8])] = base64.map { entry in
                (entry.path, Array(Data(base64Encoded: entry.base64.description) ?? Data()))
            }

            private static let base64: [(path: String, base64: StaticString)] = [

        """
    for (path, url) in entries {
        let bytes = try Data(contentsOf: url)
        let escapedPath = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        source += "        (\"\(escapedPath)\", \"\(bytes.base64EncodedString())\"),\n"
    }
    source += "    ]\n}\n"
    let data = Data(source.utf8)
    // An unchanged output keeps its timestamp, so that nothing downstream rebuilds for nothing.
    if (try? Data(contentsOf: output)) != data { try data.write(to: output, options: .atomic) }
} catch {
    FileHandle.standardError.write(Data("folder-embedder: \(error)\n".utf8))
    exit(74)
}
