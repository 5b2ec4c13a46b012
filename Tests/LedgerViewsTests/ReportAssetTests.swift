import Foundation
@testable import LedgerViews
import Testing

/// The report's files are embedded into the executable by the build (ReportFiles, the EmbedFolders
/// plugin): the embedded list and bytes are the folder's.
@Suite struct ReportAssetTests {
    @Test("every file of Sources/ReportAssets/report is embedded, and nothing else")
    func embeddedFilesMatchTheFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ReportAssets/report")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(ReportAssets.paths == files, "the build embeds every file of the folder (the EmbedFolders plugin)")
        for path in files {
            let bytes = try #require(ReportAssets.bytes(path))
            #expect(bytes == Array(try Data(contentsOf: folder.appendingPathComponent(path))),
                    "\(path): the embedded copy is not the folder's")
            let text = try #require(String(validating: bytes, as: UTF8.self), "\(path) is not UTF-8")
            // The page inlines the style sheet and the scripts, where this would close the element.
            if !path.hasSuffix(".html") { #expect(!text.lowercased().contains("</s"), "\(path) holds </s…") }
        }
    }

    /// The page cannot import (file://): the map's modules are inlined in dependency order with
    /// their import lines and export keywords taken out, so mapCore.js's names are in scope.
    @Test func mapModulesAreInlinedInOrderWithoutImportOrExport() throws {
        let script = ReportPage.inlineModules(["mapCore.js", "map.js"])
        let lines = script.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("import ") || $0.hasPrefix("export ") })
        let core = try #require(script.range(of: "function stationsAt("))
        let map = try #require(script.range(of: "function drawReportMap("))
        #expect(core.lowerBound < map.lowerBound)
        #expect(ReportAssets.text("map.js").contains("import { stationsAt } from './mapCore.js';"))
        #expect(ReportAssets.text("mapCore.js").contains("export function stationsAt("))
    }
}
