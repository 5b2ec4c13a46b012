import Foundation

/// Runs the built `oritsubushi` executable the way a user does, capturing stdout, stderr and the
/// exit code.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable next to this test bundle (SwiftPM puts products and test bundles together).
    static let executable: String = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("oritsubushi").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        // Fall back to the default build folder of the package.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/oritsubushi").path
    }()

    var ledger: String
    var environment: [String: String] = [:]

    @discardableResult
    func run(_ arguments: String..., stdin: String? = nil) throws -> Result {
        try run(arguments, stdin: stdin)
    }

    func run(_ arguments: [String], stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["ORITSUBUSHI_LEDGER"] = ledger
        env["ORITSUBUSHI_NOW"] = "2026-11-22T12:00:00+09:00"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so that a chatty child cannot block on a full pipe.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh directory under the system temporary directory.
struct Scratch {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/oritsubushi-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Every file below `root` with its bytes.
func directorySnapshot(_ root: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
    while let relative = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
        result[relative] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
    }
    return result
}
