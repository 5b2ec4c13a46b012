/// The progress report's files (report/: the page template, its fragments, the style sheet and
/// the scripts), embedded into the executable at build time by the EmbedFolders plugin
/// (`ReportFiles.files`), so a copied binary writes the report with no other file.
package enum ReportFiles {}
