import Foundation

/// Runs the built `oritsubushi` binary (found next to the test bundle, in the products folder of
/// the scratch path) with a pinned clock and ledger.
struct CLIProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let executable: String = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("oritsubushi").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/oritsubushi").path
    }()

    var ledger: String
    var now = "2026-11-22T12:00:00+09:00"

    @discardableResult
    func run(_ arguments: String...) throws -> Result { try run(arguments) }

    func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["ORITSUBUSHI_LEDGER"] = ledger
        env["ORITSUBUSHI_NOW"] = now
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes at once so that a chatty child cannot block on a full pipe.
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
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
