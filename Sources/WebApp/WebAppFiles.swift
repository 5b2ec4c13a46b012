/// The phone app's files (app/: HTML, CSS, JavaScript modules, manifest, service worker, icons,
/// the base map), embedded into the executable at build time: the EmbedFolders plugin writes
/// `WebAppFiles.files` from the folder, again whenever one of its files changes, so a copied
/// binary serves /app/ with no other file (SyncServer's `WebAppAssets` serves them).
package enum WebAppFiles {}
