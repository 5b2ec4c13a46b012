import Foundation
import PackagePlugin

/// Embeds each folder inside a target's directory into the target as Swift source
/// (Tools/folder-embedder), declaring every file of it as an input: SwiftPM embeds them again
/// whenever one changes, is added or is removed, and a copied executable carries them. The type
/// the files land in is the target's own (`<Target>.files`, declared in the target).
@main
struct EmbedFolders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "folder-embedder").url
        let manager = FileManager.default
        var commands: [Command] = []
        for name in try manager.contentsOfDirectory(atPath: target.directoryURL.path).sorted() where !name.hasPrefix(".") {
            let folder = target.directoryURL.appending(path: name)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)+\(name).swift")
            commands.append(.buildCommand(
                displayName: "Embedding \(target.name)/\(name)",
                executable: tool,
                arguments: [folder.path, output.path, target.name],
                inputFiles: try inputs(under: folder, manager),
                outputFiles: [output]))
        }
        return commands
    }

    /// Every file under `folder` and, for a link, the file it names (so that an edit of the
    /// linked file embeds it again). A file added or removed changes this list, and with it the
    /// command, which SwiftPM then runs again.
    private func inputs(under folder: URL, _ manager: FileManager) throws -> [URL] {
        var found: [URL] = []
        for name in try manager.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            let entry = folder.appending(path: name)
            let resolved = entry.resolvingSymlinksInPath()
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: resolved.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += try inputs(under: resolved, manager)
            } else {
                found.append(entry)
                if resolved != entry { found.append(resolved) }
            }
        }
        return found
    }
}
